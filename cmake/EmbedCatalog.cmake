# Writes OUTPUT, a C++ file holding the JSON catalog files in INPUTS as raw
# string literals, so every front door and the runtime probe carry the
# catalog (capture_lint::builtinCatalogFiles, checks/catalog's library).
string(REPLACE "|" ";" INPUTS "${INPUTS}")
set(body "// Generated from checks/catalog/*.json by cmake/EmbedCatalog.cmake.\n")
string(APPEND body "#include \"capture_lint/Catalog.h\"\n\nnamespace capture_lint {\n")
string(APPEND body "const std::vector<BuiltinCatalogFile> &builtinCatalogFiles() {\n")
string(APPEND body "  static const std::vector<BuiltinCatalogFile> Files = {\n")
foreach(f ${INPUTS})
  file(READ ${f} text)
  get_filename_component(name ${f} NAME)
  string(APPEND body "    {\"builtin:${name}\", R\"CAPTURECATALOG(${text})CAPTURECATALOG\"},\n")
endforeach()
string(APPEND body "  };\n  return Files;\n}\n} // namespace capture_lint\n")
file(WRITE ${OUTPUT}.tmp "${body}")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
