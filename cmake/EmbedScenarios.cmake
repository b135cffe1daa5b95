# SPDX-License-Identifier: GPL-3.0-or-later
# Writes OUT: a C++ file with every scenario JSON of DIR as a raw string (the presets work from any
# directory without the source tree). Run with cmake -DDIR=... -DOUT=... -P EmbedScenarios.cmake.
file(GLOB files "${DIR}/*.json")
list(SORT files)
set(body "// Generated from resources/scenarios/*.json by cmake/EmbedScenarios.cmake. Do not edit.\n")
string(APPEND body "#include \"sim/Presets.h\"\n\nnamespace tickscope::sim {\n\nconst std::vector<Preset> &presets()\n{\n")
string(APPEND body "    static const std::vector<Preset> all{\n")
foreach(f ${files})
  get_filename_component(name "${f}" NAME_WE)
  file(READ "${f}" text)
  string(APPEND body "        {\"${name}\", R\"tickscope_json(${text})tickscope_json\"},\n")
endforeach()
string(APPEND body "    };\n    return all;\n}\n\n} // namespace tickscope::sim\n")
file(WRITE "${OUT}.tmp" "${body}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
