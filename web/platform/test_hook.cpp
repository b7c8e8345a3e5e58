#include "platform/test_hook.h"

#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "imgui_internal.h"

namespace dtx::web {
namespace {

// What the hook gathers from ImGui's item hooks (one per ImGui context: the page has one).
struct HookState {
  HookFrame frame;
  std::vector<std::string> asserts;
  // ItemAdd gives rectangles, ItemInfo gives labels; both carry the ID.
  std::unordered_map<ImGuiID, ImRect> rects;
  std::unordered_set<ImGuiID> cut;      // items wider than their window shows them
  std::unordered_set<ImGuiID> partial;  // items only partly shown
  std::unordered_map<ImGuiID, size_t> seen;
  std::unordered_set<ImGuiID> focusable_ids;  // this frame's, listed once each
  std::unordered_set<ImGuiID> text_fields;  // IDs seen as InputText (their label comes only when visible)
  std::unordered_map<ImGuiID, HookItem> last_seen;  // bounded: cleared when it grows past kMaxRemembered
} g_hook;
constexpr size_t kMaxRemembered = 8192;

// "text##key" and "text###key" are listed as key. "text##key###stable": listed as key, while
// ImGui's ID comes from "###stable" alone, so an item that moves (a row being dragged) keeps
// its ID and the tests still find it by its place.
std::string key_of(const char* label) {
  std::string s = label ? label : "";
  size_t p = s.find("##");
  if (p == std::string::npos) return s;
  std::string k = s.substr(p + 2);
  if (!k.empty() && k[0] == '#') return k.substr(1);  // "###id"
  if (size_t q = k.find("###"); q != std::string::npos) k.erase(q);
  return k;
}

std::string visible_label(const char* label) {
  std::string s = label ? label : "";
  size_t p = s.find("##");
  return p == std::string::npos ? s : s.substr(0, p);
}

}  // namespace

void hook_begin_frame() {
  g_hook.frame.items.clear();
  g_hook.frame.focusables.clear();
  g_hook.focusable_ids.clear();
  g_hook.frame.id_clashes.clear();
  g_hook.rects.clear();
  g_hook.cut.clear();
  g_hook.partial.clear();
  g_hook.seen.clear();
}

const HookFrame& hook_frame() { return g_hook.frame; }

const HookItem* hook_last_seen(ImGuiID id) {
  auto it = g_hook.last_seen.find(id);
  return it == g_hook.last_seen.end() ? nullptr : &it->second;
}

bool hook_is_text_field(ImGuiID id) { return g_hook.text_fields.count(id) != 0; }

void hook_mark_text_field(ImGuiID id) {
  if (g_hook.text_fields.size() > 4096) g_hook.text_fields.clear();
  g_hook.text_fields.insert(id);
  for (auto it = g_hook.frame.focusables.rbegin(); it != g_hook.frame.focusables.rend(); ++it)
    if (it->id == id) {
      it->text_field = true;
      break;
    }
}

std::vector<std::string> hook_take_asserts() {
  std::vector<std::string> out;
  out.swap(g_hook.asserts);
  return out;
}

}  // namespace dtx::web

using namespace dtx::web;

void dtx_imgui_assert(bool ok, const char* expr, const char* file, int line) {
  if (ok) return;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s:%d: IM_ASSERT(%s)", file, line, expr);
  std::fprintf(stderr, "%s\n", buf);
  // The browser never takes them: keep the first ones, not one more per frame forever.
  if (g_hook.asserts.size() < 1000) g_hook.asserts.push_back(buf);
}

void ImGuiTestEngineHook_ItemAdd(ImGuiContext* ctx, const ImRect& bb, ImGuiID id) {
  if (id == 0) return;
  // Only the part of the item inside its window's clip rectangle can be clicked.
  ImRect r = bb;
  if (ctx->CurrentWindow) {
    const ImRect& c = ctx->CurrentWindow->ClipRect;
    // A phone must see every control whole: an item sticking out at the side is reported
    // (not in a child made to scroll sideways, a code listing, whose lines are meant to slide;
    // a selectable's frame reaches half an item spacing past the content, which is fine).
    const bool hscroll = (ctx->CurrentWindow->Flags & ImGuiWindowFlags_HorizontalScrollbar) != 0;
    const float slack = ctx->Style.ItemSpacing.x * 0.5f + 1;
    if (!hscroll && (bb.Min.x < c.Min.x - slack || bb.Max.x > c.Max.x + slack)) g_hook.cut.insert(id);
    r.ClipWith(c);
    if (r.GetWidth() < bb.GetWidth() - 1 || r.GetHeight() < bb.GetHeight() - 1) g_hook.partial.insert(id);
  }
  g_hook.rects[id] = r;
  // Reachable by keyboard: an enabled item that takes part in navigation, and not the item a
  // child window leaves in its parent (the child's own items are listed instead; a multi-line
  // text field's child leaves one too, with the field's ID, before the field's own item).
  const ImGuiItemFlags f = ctx->LastItemData.InFlags;
  ImGuiWindow* w = ctx->CurrentWindow;
  bool child_item = false;
  if (w && !(f & ImGuiItemFlags_Inputable))
    for (ImGuiWindow* c : w->DC.ChildWindows)
      if (c->ChildId == id) child_item = true;
  // (Nor what lands in ImGui's implicit "Debug" window, which is never drawn. Nor a scrollbar:
  // ButtonBehavior reports items that never went through ItemAdd, and then LastItemData is
  // still the item before; ImGui's navigation never stops on those.)
  const bool added = ctx->LastItemData.ID == id;
  if (w && added && !w->IsFallbackWindow && !(f & (ImGuiItemFlags_Disabled | ImGuiItemFlags_NoNav)) && !child_item &&
      g_hook.focusable_ids.insert(id).second) {
    FocusItem fi;
    fi.id = id;
    fi.window = w;
    fi.focus_scope = w->DC.NavFocusScopeIdCurrent;
    fi.rect = bb;
    fi.text_field = g_hook.text_fields.count(id) != 0;
    g_hook.frame.focusables.push_back(fi);
  }
}

void ImGuiTestEngineHook_ItemInfo(ImGuiContext* ctx, ImGuiID id, const char* label, ImGuiItemStatusFlags flags) {
  if (id == 0 || !label) return;
  auto it = g_hook.rects.find(id);
  if (it == g_hook.rects.end()) return;
  auto seen = g_hook.seen.find(id);
  if (seen != g_hook.seen.end()) {
    // Same ID twice in one frame: ImGui would mix up their state (1.86 does not warn).
    g_hook.frame.id_clashes.push_back(label);
    return;
  }
  const ImRect& r = it->second;
  if (r.GetWidth() <= 0 || r.GetHeight() <= 0) return;
  g_hook.seen[id] = g_hook.frame.items.size();
  const ImGuiWindow* w = GImGui ? GImGui->CurrentWindow : nullptr;
  g_hook.frame.items.push_back({id, key_of(label), visible_label(label), r.Min, r.Max, g_hook.cut.count(id) != 0,
                                g_hook.partial.count(id) != 0, flags, w ? w->Name : ""});
  if (g_hook.last_seen.size() > kMaxRemembered) g_hook.last_seen.clear();
  g_hook.last_seen[id] = g_hook.frame.items.back();
}

void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}
const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID) { return nullptr; }
