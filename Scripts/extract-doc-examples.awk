# One source file's ```swift blocks → one generated Swift file (see extract-doc-examples.sh
# for the wrapping rules). Variables: src (path shown in comments and #sourceLocation),
# ident (function-name stem), context (type whose methods the examples become, or ""),
# index_file (DocExampleIndex.swift entries are appended there). POSIX awk (mawk).

BEGIN {
  is_swift = (src ~ /\.swift$/)
  in_block = 0
  last["f"] = -1000; last["b"] = -1000
  nimports = 0
  filescope = ""
  functions = ""
  split("DIContainer DIParts DIFrameworks Dispatch Foundation Synchronization Testing", known, " ")
  for (k in known) known_module[known[k]] = 1
  add_import("DIContainer"); add_import("DIFrameworks"); add_import("DIParts")
  add_import("Testing")
  type_decl = "^[ \t]*(@[A-Za-z]+[ \t]+)*((public|package|open|internal|fileprivate|private|final|indirect)[ \t]+)*(class|struct|enum|actor|protocol|extension)[ \t]"
}

function add_import(module) {
  if (!(module in imported)) { imported[module] = 1; import_list[++nimports] = module }
}

function indent_of(s) { match(s, /^[ \t]*/); return RLENGTH }

function balanced(s,    t, o, c) {
  t = s
  gsub(/"[^"]*"/, "", t)
  sub(/\/\/.*$/, "", t)
  o = gsub(/[([{]/, "", t); c = gsub(/[])}]/, "", t)
  return o == c
}

# Names bound by `let name`, `var name` or `let (a, b)` at the start of s, space-separated.
function bound_names(s,    t, names) {
  t = s
  sub(/^[ \t]*(let|var)[ \t]+/, "", t)
  if (t ~ /^\(/) {
    sub(/^\(/, "", t); sub(/\).*$/, "", t); gsub(/[ \t]/, "", t); gsub(/,/, " ", t)
    return t
  }
  if (match(t, /^[A-Za-z_][A-Za-z0-9_]*/)) return substr(t, 1, RLENGTH)
  return ""
}

# Appends a line to a region ("f": file scope, "b": function body); keeps #sourceLocation
# in step so compiler messages name the documentation line. line < 0: generated text.
function emit(region, text, line, pad,    out) {
  out = ""
  if (line >= 0 && line != last[region] + 1) {
    out = "#sourceLocation(file: \"" src "\", line: " line ")\n"
  }
  out = out ((text == "") ? "" : pad text) "\n"
  last[region] = (line >= 0) ? line : -100
  if (region == "f") filescope = filescope out; else functions = functions out
}

function end_region(region) {
  if (last[region] != -1000) {
    if (region == "f") filescope = filescope "#sourceLocation()\n"
    else functions = functions "#sourceLocation()\n"
  }
  last[region] = -1000
}

function head(s,    t) {
  t = s
  while (sub(/^@[A-Za-z]+(\([^)]*\))?[ \t]+/, "", t)) {}
  while (sub(/^(public|package|open|internal|fileprivate|private|final|static|nonisolated|indirect|override|required|convenience)[ \t]+/, "", t)) {}
  match(t, /^[A-Za-z_]+/)
  return substr(t, 1, RLENGTH)
}

function process_block(    i, j, k, line, nitems, kind, first, h, needs_file, fn, pad, body_pad, is_async, names, nn, name_list, enclosing, region, m, mod) {
  # 1. Split into top-level items: a line at indentation 0 starts one, unless it closes
  #    a bracket (`}`, `) catch`) or continues a chain (`.`).
  nitems = 0
  for (i = 1; i <= n; i++) {
    line = code[i]
    if (line ~ /^[^] \t}).]/ || nitems == 0) {
      nitems++; item_start[nitems] = i
    }
    item_of[i] = nitems
  }
  for (j = 1; j <= nitems; j++) item_end[j] = (j < nitems) ? item_start[j + 1] - 1 : n
  # 2. Classify.
  needs_file = 0
  for (j = 1; j <= nitems; j++) {
    first = code[item_start[j]]
    h = head(first)
    if (first ~ /^\/\// || first ~ /^[ \t]*$/) kind[j] = "stmt"
    else if (h == "import") { kind[j] = "import"; needs_file = 1 }
    else if (h ~ /^(class|struct|enum|actor|protocol|extension|typealias|func)$/) {
      kind[j] = "decl"
      if (h == "protocol" || h == "extension" || first ~ /(^|[ \t])(public|package|open)[ \t]/ \
        || first ~ /@(Test|Suite)/) needs_file = 1
    } else kind[j] = "stmt"
  }
  # 3. Emit.
  fn = "example_" ident "_L" fence_line
  pad = (context != "") ? "  " : ""
  body_pad = pad "  "
  is_async = 0
  for (i = 1; i <= n; i++) if (code[i] ~ /(^|[^A-Za-z0-9_])await([^A-Za-z0-9_]|$)/) is_async = 1
  functions = functions "\n" pad "// From " src ":" fence_line "\n"
  functions = functions pad "func " fn "() " (is_async ? "async " : "") "throws {\n"
  last["b"] = -1000
  for (j = 1; j <= nitems; j++) {
    if (kind[j] == "import") {
      line = code[item_start[j]]
      sub(/^.*import[ \t]+/, "", line); sub(/[ \t].*$/, "", line)
      if (line in known_module) add_import(line)
      continue
    }
    region = (kind[j] == "decl" && needs_file) ? "f" : "b"
    if (region == "f" && last["f"] == -1000) {
      filescope = filescope "\n// From " src ":" fence_line "\n"
    }
    for (i = item_start[j]; i <= item_end[j]; i++) {
      emit(region, code[i], lines[i], (region == "b") ? body_pad : "")
      if (region != "b" || kind[j] != "stmt") continue
      # A one-line `let`/`var` nested in a statement block (not a type's member).
      if (i > item_start[j] && code[i] ~ /^[ \t]+(let|var)[ \t]/ && balanced(code[i]) \
        && !(i < n && indent_of(code[i + 1]) > indent_of(code[i]))) {
        enclosing = ""
        for (k = i - 1; k >= item_start[j]; k--) {
          if (code[k] !~ /^[ \t]*$/ && indent_of(code[k]) < indent_of(code[i])) { enclosing = code[k]; break }
        }
        if (enclosing !~ type_decl) {
          names = bound_names(code[i])
          nn = split(names, name_list, " ")
          match(code[i], /^[ \t]*/)
          for (m = 1; m <= nn; m++) emit("b", substr(code[i], 1, RLENGTH) "_ = " name_list[m], -1, body_pad)
        }
      }
    }
    if (region == "b" && kind[j] == "stmt" && code[item_start[j]] ~ /^(let|var)[ \t]/) {
      names = bound_names(code[item_start[j]])
      nn = split(names, name_list, " ")
      for (m = 1; m <= nn; m++) emit("b", "_ = " name_list[m], -1, body_pad)
    }
  }
  end_region("b")
  end_region("f")
  functions = functions pad "}\n"
  owns = 0
  for (i = 1; i <= n; i++) if (code[i] ~ /^let container = DIContainer\(/) owns = 1
  printf "  DocExample(\"%s\", line: %d, ownsContainer: %s) { try %s%s%s() },\n", src, fence_line, (owns ? "true" : "false"), \
    (is_async ? "await " : ""), (context != "" ? context "()." : ""), fn >> index_file
}

{
  raw = $0
  if (is_swift) {
    if (match(raw, /^[ \t]*\/\/\/ ?/)) body = substr(raw, RLENGTH + 1)
    else {
      if (in_block) { print src ":" fence_line ": unterminated ```swift block" > "/dev/stderr"; exit 1 }
      next
    }
  } else body = raw
  if (!in_block && body ~ /^[ \t]*```swift[ \t]*$/) {
    in_block = 1; fence_line = FNR; fence_indent = indent_of(body); n = 0
    next
  }
  if (in_block && body ~ /^[ \t]*```/) {
    in_block = 0
    if (n > 0) process_block()
    next
  }
  if (in_block) {
    n++
    if (indent_of(body) >= fence_indent) body = substr(body, fence_indent + 1)
    code[n] = body; lines[n] = FNR
  }
}

END {
  if (in_block) { print src ":" fence_line ": unterminated ```swift block" > "/dev/stderr"; exit 1 }
  print "// swift-format-ignore-file"
  print "// Generated by Scripts/extract-doc-examples.sh from " src "; do not edit."
  print "// Fix an example in the documentation, then run the script again."
  print ""
  for (i = 1; i <= nimports; i++) print "import " import_list[i]
  printf "%s", filescope
  if (context != "") printf "\nextension %s {", context
  printf "%s", functions
  if (context != "") print "}"
}
