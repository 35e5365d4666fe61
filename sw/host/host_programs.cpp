#include "host_programs.hpp"

#include "rb_gauss_seidel.hpp"
#include "stream_filter.hpp"
#include "sva_copy.hpp"

namespace par::host {

namespace {
template <class P>
HostProgramInfo entry() {
  const P p;
  return HostProgramInfo{p.name(), p.description(), [] { return std::make_unique<P>(); }};
}
}  // namespace

const std::vector<HostProgramInfo>& host_programs() {
  static const std::vector<HostProgramInfo> table{
      entry<RbGaussSeidel>(),
      entry<SvaCopy>(),
      entry<StreamFilter>(),
  };
  return table;
}

std::unique_ptr<runtime::HostProgram> make_host_program(const std::string& name, std::string* error) {
  std::string known;
  for (const HostProgramInfo& p : host_programs()) {
    if (p.name == name) return p.make();
    known += (known.empty() ? "" : ", ") + p.name;
  }
  if (error != nullptr) *error = "unknown host program '" + name + "' (known: " + known + ")";
  return nullptr;
}

}  // namespace par::host
