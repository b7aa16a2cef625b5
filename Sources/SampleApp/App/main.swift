import SampleAppCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

let result = await SampleCLI.run(Array(CommandLine.arguments.dropFirst()))
print(result.output, terminator: "")
var errors = result.errors
errors.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
exit(result.status)
