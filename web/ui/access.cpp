#include "ui/access.h"

#include <unordered_map>

#include "imgui_internal.h"
#include "maths.h"
#include "ui/markdown.h"

namespace dtx::web {
namespace {

std::unordered_map<ImGuiID, Access> g_notes;

}  // namespace

void access_item(Access a) {
  const ImGuiID id = GImGui->LastItemData.ID;
  if (id == 0) return;
  g_notes[id] = std::move(a);
}

void access_item(Role role, std::string name, std::string desc, int checked, std::string group) {
  Access a;
  a.role = role;
  a.name = std::move(name);
  a.desc = std::move(desc);
  a.checked = checked;
  a.group = std::move(group);
  access_item(std::move(a));
}

void link_item(std::string name, std::string href) {
  Access a;
  a.role = Role::Link;
  a.name = std::move(name);
  a.href = std::move(href);
  access_item(std::move(a));
}

const Access* access_find(ImGuiID id) {
  auto it = g_notes.find(id);
  return it == g_notes.end() ? nullptr : &it->second;
}

void access_begin_frame() { g_notes.clear(); }

const char* access_role_name(Role r) {
  switch (r) {
    case Role::Auto:
    case Role::Button:
    case Role::Row:
    case Role::Line:
    case Role::Expander: return "button";
    case Role::Link: return "link";
    case Role::Checkbox: return "checkbox";
    case Role::Radio: return "radio";
    case Role::Textbox:
    case Role::Textarea: return "textbox";
    case Role::Slider: return "slider";
  }
  return "button";
}

std::string access_plain(const std::vector<MdRun>& runs) {
  std::string out;
  for (const MdRun& r : runs) {
    std::string t = (r.style & kMath) && r.math ? math_to_plain(*r.math) : r.text;
    if (!out.empty() && !t.empty() && out.back() != ' ' && t.front() != ' ' &&
        std::string(",.;:)!?").find(t.front()) == std::string::npos)
      out += ' ';
    out += t;
  }
  return out;
}

std::string access_plain(const std::string& markdown) {
  MdDoc doc = parse_markdown(markdown);
  std::string out;
  for (const MdBlock& b : doc.blocks) {
    std::string t = access_plain(b.runs);
    if (t.empty()) continue;
    if (!out.empty()) out += ' ';
    out += t;
  }
  return out.empty() ? markdown : out;
}

}  // namespace dtx::web
