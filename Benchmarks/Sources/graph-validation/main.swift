// Prints how long validating a 10,000-component, 100-framework graph takes.
let result = GraphValidationBenchmark.run()
let rounded = (result.ms * 10).rounded() / 10
print(
  "graph validation: \(result.components) components, \(result.edges) edges,"
    + " \(result.problems) problems; makeGraph() + findProblems() \(rounded) ms (best of 5)")
