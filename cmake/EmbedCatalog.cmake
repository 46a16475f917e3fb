# Writes OUTPUT, a C++ file holding the JSON catalog files in INPUTS as raw
# string literals, so the tool, the plugin and clangd carry their catalog.
string(REPLACE "|" ";" INPUTS "${INPUTS}")
set(body "// Generated from checks/catalog/*.json by cmake/EmbedCatalog.cmake.\n")
string(APPEND body "#include \"capture_lint/Catalog.h\"\n\nnamespace capture_lint {\n")
string(APPEND body "static const BuiltinCatalogFile Files[] = {\n")
foreach(f ${INPUTS})
  file(READ ${f} text)
  get_filename_component(name ${f} NAME)
  string(APPEND body "  {\"builtin:${name}\", R\"CAPTURECATALOG(${text})CAPTURECATALOG\"},\n")
endforeach()
string(APPEND body "};\n\nllvm::ArrayRef<BuiltinCatalogFile> builtinCatalogFiles() { return Files; }\n\n} // namespace capture_lint\n")
file(WRITE ${OUTPUT}.tmp "${body}")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
