# Checks a student's answer to one graded exercise before it is built, and stages it for the build.
#
#   cmake -D EXERCISE=exercise01_1 -D SOURCE=path/to/per_warp_histogram.cuh
#         [-D DESTINATION=build/.../per_warp_histogram.cuh]
#         [-D SUPPORT=a_support.cuh,...] [-D FORBID=__match_any_sync,__match_all_sync,...]
#         [-D VERDICT=build/.../answer_check.json] -P cmake/check_exercise.cmake
#
# An answer may include the C++ standard library, the CUDA headers listed below and the
# exercise's own support headers (SUPPORT), and nothing else: not CUB, Thrust or cuBLAS, not the
# lesson's kernels or CPU reference, not the course's common/ helpers. It may not name what those
# define (cub::, thrust::, cublas, course::, lessonNN::), nor anything the exercise forbids
# (FORBID, for example __match_any_sync where the exercise is to build it from votes), nor reach
# around the rules (inline PTX, #undef, token pasting). Comments and string literals are ignored.
#
# On success the answer is copied to DESTINATION (when given), which is what the build compiles,
# behind a #line directive that names SOURCE, so that the compiler's errors name the student's file.
# On failure it prints one line per problem, for example
#   exercise02_2: block_all_sum.cuh uses __shfl_down_sync (not allowed in this exercise)
# and exits with an error, so the exercise does not build and earns nothing. docs/instructors.md
# says what this check can and cannot see.
#
# With VERDICT, it also writes its verdict there, for grade.py (which reads no build output):
#   {"check": "answer", "pass": false, "missing": true, "why": "<file> is missing"}
#   {"check": "answer", "pass": false, "why": "<the first problem>", "problems": ["...", ...]}
#   {"check": "answer", "pass": true}
cmake_minimum_required(VERSION 3.18)

if(NOT DEFINED EXERCISE OR NOT DEFINED SOURCE)
  message(FATAL_ERROR "check_exercise.cmake needs -D EXERCISE=... -D SOURCE=...")
endif()

# `text` as a JSON string, quotes included.
function(json_quote text out)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE "\n" "\\n" text "${text}")
  string(REPLACE "\t" "\\t" text "${text}")
  string(REPLACE "\r" "\\r" text "${text}")
  set(${out} "\"${text}\"" PARENT_SCOPE)
endfunction()
# Writes the verdict file, when VERDICT names one: `fields` are the JSON object's other members.
function(write_verdict fields)
  if(DEFINED VERDICT AND NOT VERDICT STREQUAL "")
    file(WRITE "${VERDICT}" "{\"check\": \"answer\", ${fields}}\n")
  endif()
endfunction()

get_filename_component(file_name "${SOURCE}" NAME)
if(NOT EXISTS "${SOURCE}")
  json_quote("${file_name} is missing" why)
  write_verdict("\"pass\": false, \"missing\": true, \"why\": ${why}")
  message(FATAL_ERROR "${EXERCISE}: ${file_name} is missing (expected at ${SOURCE})")
endif()
file(READ "${SOURCE}" text)
# The compiler ends a line at a carriage return alone too: so does this check, and the copy the
# build compiles is this text (below), so both read the same lines.
string(REPLACE "\r\n" "\n" text "${text}")
string(REPLACE "\r" "\n" text "${text}")
set(problems)

# ---- what a scan of the text cannot read ---------------------------------------------------------
# A backslash at the end of a line joins it to the next before the compiler sees names, so a name
# split across the two is hidden from the scan below; a raw string, or a digit separator, which
# the scan would take for a character literal, can hide code the same way. No answer needs them.
# Nor conditional compilation (below): the tests and the compiled-code check build the same file
# with different macros, and #if / #ifdef could show each a different answer.
# (A backslash with only spaces after it before the line's end is a splice to the compiler too.)
if(text MATCHES "\\\\[ \t]*\n")
  list(APPEND problems "uses a line splice (a backslash at the end of a line)")
endif()
# A form feed or vertical tab is white space to the compiler, and not to this check's reading of
# directives; no answer needs them.
string(ASCII 11 vertical_tab)
string(ASCII 12 form_feed)
if(text MATCHES "[${vertical_tab}${form_feed}]")
  list(APPEND problems "uses a form feed or vertical tab")
endif()

string(REPLACE "," ";" SUPPORT "${SUPPORT}")  # lists come comma-separated (see cmake/CourseExercise.cmake)
string(REPLACE "," ";" FORBID "${FORBID}")

# ---- comments and literals out --------------------------------------------------------------------
# One pass from left to right: at each place, a line comment, a block comment, a string literal or
# a character literal, whichever starts there. `code` has comments turned into a space and literals
# emptied (for the names); `directives` keeps the literals (for the names of included files).
set(pattern_line_comment "//[^\n]*")
set(pattern_block_comment "/\\*([^*]|\\*+[^*/])*\\*+/")
set(pattern_string "\"([^\"\\\\\n]|\\\\.)*\"")
set(pattern_char "'([^'\\\\\n]|\\\\.)*'")
set(code "")
set(directives "")
set(rest "${text}")
while(NOT rest STREQUAL "")
  string(REGEX MATCH "^([^/\"']|/[^/*\"'])+" plain "${rest}")  # up to a comment or literal
  string(LENGTH "${plain}" plain_length)
  string(APPEND code "${plain}")
  string(APPEND directives "${plain}")
  string(SUBSTRING "${rest}" ${plain_length} -1 rest)
  if(rest STREQUAL "")
    break()
  endif()
  if(rest MATCHES "^${pattern_line_comment}")
    string(APPEND code " ")
    string(APPEND directives " ")
  elseif(rest MATCHES "^${pattern_block_comment}")
    string(APPEND code " ")
    string(APPEND directives " ")
  elseif(rest MATCHES "^${pattern_string}")
    string(APPEND code "\"\"")
    string(APPEND directives "${CMAKE_MATCH_0}")
  elseif(rest MATCHES "^${pattern_char}")
    string(APPEND code "''")
    string(APPEND directives "${CMAKE_MATCH_0}")
  else()  # a lone / or quote that starts nothing: keep it and go on
    string(SUBSTRING "${rest}" 0 1 CMAKE_MATCH_0)
    string(APPEND code "${CMAKE_MATCH_0}")
    string(APPEND directives "${CMAKE_MATCH_0}")
  endif()
  string(LENGTH "${CMAKE_MATCH_0}" matched_length)
  string(SUBSTRING "${rest}" ${matched_length} -1 rest)
endwhile()

# The scan above takes a raw string, or a number with digit separators, for other literals, and
# so reads what follows them wrongly; each leaves its mark in `code`.
if(code MATCHES "(^|[^A-Za-z0-9_])(u8|u|U|L)?R\"\"")
  list(APPEND problems "uses a raw string literal")
endif()
if(code MATCHES "[0-9A-Fa-f]''")
  list(APPEND problems "uses a digit separator")
endif()
# The digraph %: is '#' to the preprocessor (%:include, %:define, %:if): this check reads '#'.
if(code MATCHES "%:")
  list(APPEND problems "uses the digraph %: (a '#' spelt another way)")
endif()
# #line, or a line marker (# 12 "file"), would tell the compiler, and the check of the
# preprocessed code, that the answer's lines were another file's.
if(code MATCHES "(^|\n)[ \t]*#[ \t]*(line([^A-Za-z0-9_]|$)|[0-9])")
  list(APPEND problems "uses #line (the answer's lines would be said to be another file's)")
endif()
if(code MATCHES "(^|\n)[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)([^A-Za-z0-9_]|$)")
  list(APPEND problems "uses conditional compilation (#if, #ifdef, ...)")
endif()
# A macro outlives the answer: the harness that includes the answer's file is compiled after it,
# and a #define there would rewrite the harness's own lines (its calls, its probes' switches).
if(code MATCHES "(^|\n)[ \t]*#[ \t]*define([^A-Za-z0-9_]|$)")
  list(APPEND problems "uses #define (a macro would rewrite the harness compiled after it)")
endif()

# ---- includes -----------------------------------------------------------------------------------
# The headers and the library names, shared with the check of the preprocessed answer
# (scripts/check_preprocessed.py): cmake/answer_rules.json.
file(READ "${CMAKE_CURRENT_LIST_DIR}/answer_rules.json" rules)
set(allowed_angle)
string(JSON count LENGTH "${rules}" headers)
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON header GET "${rules}" headers ${i})
  list(APPEND allowed_angle "${header}")
endforeach()
set(shared_names)
string(JSON count LENGTH "${rules}" names)
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON shown GET "${rules}" names ${i} 0)
  string(JSON pattern GET "${rules}" names ${i} 1)
  list(APPEND shared_names "${shown}|${pattern}")
endforeach()
string(REGEX MATCHALL "#[ \t]*(include|include_next|import)[^\n]*" includes "${directives}")
foreach(line IN LISTS includes)
  string(STRIP "${line}" line)
  if(line MATCHES "^#[ \t]*include[ \t]*<([^>]+)>$")
    set(header "${CMAKE_MATCH_1}")
    if(NOT header IN_LIST allowed_angle AND NOT header MATCHES "^cuda/std/[a-z_]+$")
      list(APPEND problems "includes <${header}>")
    endif()
  elseif(line MATCHES "^#[ \t]*include[ \t]*\"([^\"]+)\"$")
    set(header "${CMAKE_MATCH_1}")
    if(NOT header IN_LIST SUPPORT)
      list(APPEND problems "includes \"${header}\"")
    endif()
  else()
    list(APPEND problems "has an include the check cannot read (${line})")
  endif()
endforeach()

# ---- names --------------------------------------------------------------------------------------
# Each entry: what the message calls it (@: the identifier found), then the identifier's pattern
# (alternatives with |: each entry's first | separates the message from the pattern), all from
# cmake/answer_rules.json, which the check of the preprocessed answer reads too: the libraries, the
# course's and the lessons' code, the probes, the builtins behind CUDA's atomic functions (which
# atomicAdd calls as __uAtomicAdd), inline PTX, GRADING_SASS, and code that ends, steers or reads
# the test program from outside the graded call (an answer's job is its kernels and their launch,
# nothing that runs before, after or around the tests). CUDA's own headers spell __global__,
# __device__ and __shared__ through __location__ and __attribute__ (crt/host_defines.h): an answer
# that does the same hides a kernel from this check.
set(forbidden_names ${shared_names})
foreach(name IN LISTS FORBID)
  list(APPEND forbidden_names "${name}|${name}")
endforeach()
set(padded " ${code} ")
# The include lines are read above, as includes: a refused header's name is not also a name used.
string(REGEX REPLACE "#[ \t]*(include|include_next|import)[^\n]*" "" padded "${padded}")
# Dynamic shared memory is declared `extern __shared__`: the one extern an answer needs.
string(REGEX REPLACE "([^A-Za-z0-9_])extern[ \t\r\n]+__shared__" "\\1__shared__" padded "${padded}")
foreach(entry IN LISTS forbidden_names)
  string(FIND "${entry}" "|" bar)
  string(SUBSTRING "${entry}" 0 ${bar} shown)
  math(EXPR after "${bar} + 1")
  string(SUBSTRING "${entry}" ${after} -1 identifier)
  if(padded MATCHES "[^A-Za-z0-9_](${identifier})[^A-Za-z0-9_]")
    string(REPLACE "@" "${CMAKE_MATCH_1}" shown "${shown}")
    list(APPEND problems "uses ${shown}")
  endif()
endforeach()
foreach(directive "#[ \t]*undef|#undef" "push_macro|#pragma push_macro"
                  "pop_macro|#pragma pop_macro" "##|## (token pasting)")
  string(REPLACE "|" ";" parts "${directive}")
  list(GET parts 0 pattern)
  list(GET parts 1 shown)
  if(code MATCHES "${pattern}")
    list(APPEND problems "uses ${shown}")
  endif()
endforeach()

# An object's bytes read or written through another type: a void pointer, or a C-style cast to a
# pointer, reaches what a probe keeps inside an object (a count, a scrambled key's mask) around the
# operators the exercise gives. No model answer needs either. These match the spellings void* and
# (T*)x only: a type alias gets past them, so a probe must not rely on them alone.
set(void_pointer "void[ \t\r\n]*((const|volatile)[ \t\r\n]*)*\\*")
set(pointer_cast "\\([ \t\r\n]*((const|volatile)[ \t\r\n]+)*[A-Za-z_][A-Za-z0-9_:<>, \t]*\\*+[ \t\r\n]*(const[ \t\r\n]*)?\\)[ \t\r\n]*[A-Za-z_&(*]")
if(code MATCHES "${void_pointer}")
  list(APPEND problems "uses a void pointer")
endif()
if(code MATCHES "${pointer_cast}")
  list(APPEND problems "uses a C-style cast to a pointer")
endif()

if(problems)
  list(REMOVE_DUPLICATES problems)
  set(report "")
  set(quoted "")
  foreach(problem IN LISTS problems)
    string(APPEND report "${EXERCISE}: ${file_name} ${problem} (not allowed in this exercise)\n")
    json_quote("${file_name} ${problem}" one)
    list(APPEND quoted "${one}")
  endforeach()
  list(GET quoted 0 first)
  list(JOIN quoted ", " all)
  write_verdict("\"pass\": false, \"why\": ${first}, \"problems\": [${all}]")
  # message(FATAL_ERROR) would wrap the lines; print them as they are, then fail.
  execute_process(COMMAND "${CMAKE_COMMAND}" -E echo_append "${report}")
  message(FATAL_ERROR "${EXERCISE}: ${file_name} was not built: see the lines above, and "
                      "exercises.md for what this exercise allows")
endif()

if(DEFINED DESTINATION AND NOT DESTINATION STREQUAL "")
  # The copy says, to the compiler, that its lines are the student's file's: an error is reported
  # at the file the student edits, and line for line.
  get_filename_component(shown_path "${SOURCE}" ABSOLUTE)
  file(WRITE "${DESTINATION}" "#line 1 \"${shown_path}\"\n${text}")
endif()
write_verdict("\"pass\": true")
