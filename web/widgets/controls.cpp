// Controls every widget shares: the player (play, pause, step, speed, scrubber) and the
// input sliders generated from the engine's input table, so every widget feels the same
// and the ids the tests click are predictable.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/controls.h"
#include "ui/ui_env.h"
#include "imgui_internal.h"
#include "ui/access.h"
#include "widgets/widgets.h"

namespace dtx::web {

namespace {

std::string id_label(const char* text, const char* kind, const char* what) {
  return std::string(text) + "###" + kind + "-" + what;
}

// A slider for the text layer: its name, value and range, the value as the slider writes it.
// (`fmt` is the slider's own format, written for a value of type T.)
template <class T>
void access_slider(const std::string& name, T value, double min, double max, const char* fmt) {
  char text[96];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  std::snprintf(text, sizeof text, fmt, value);
#pragma GCC diagnostic pop
  Access a;
  a.role = Role::Slider;
  a.name = name;
  a.desc = "Enter, then the left and right arrows change it";
  a.has_value = true;
  a.value = static_cast<double>(value);
  a.min = min;
  a.max = max;
  a.value_text = text;
  access_item(std::move(a));
}

}  // namespace

bool draw_player(const UiEnv& ui, Player& p, const char* kind, double dt) {
  if (p.steps <= 0) p.steps = 0;
  if (p.playing) {
    if (ui.reduced_motion) {
      // prefers-reduced-motion: the picture changes a whole step at a time, nothing glides
      // (sends are never drawn part-way along a link).
      p.carry += dt * p.speed;
      const double whole = std::floor(p.carry);
      p.carry -= whole;
      p.pos = std::floor(p.pos) + whole;
    } else {
      p.pos += dt * p.speed;
    }
    if (p.pos >= p.steps) {
      p.pos = p.steps;
      p.playing = false;
    }
  }
  const bool at_end = p.pos >= p.steps;
  if (button(id_label(p.playing ? "Pause" : (at_end && p.steps > 0 ? "Replay" : "Play"), kind, "play").c_str(), true)) {
    if (p.playing) {
      p.playing = false;
    } else {
      if (at_end) p.pos = 0;
      p.carry = 0;
      p.playing = p.steps > 0;
    }
  }
  ImGui::SameLine();
  const bool back = ImGui::Button(id_label("◀ Back", kind, "back").c_str());
  access_item(Role::Button, "Back one step");
  if (back) {
    p.playing = false;
    p.pos = std::max(0.0, std::ceil(p.pos) - 1);
  }
  ImGui::SameLine();
  const bool step = ImGui::Button(id_label("Step ▶", kind, "step").c_str());
  access_item(Role::Button, "Forward one step");
  if (step) {
    p.playing = false;
    p.pos = std::min<double>(p.steps, std::floor(p.pos) + 1);
  }
  ImGui::SameLine();
  if (ImGui::Button(id_label("Restart", kind, "restart").c_str())) p.rewind();

  const float e = em(ui);
  ImGui::SetNextItemWidth(std::min(10 * e, ImGui::GetContentRegionAvail().x));
  std::string speed_id = std::string("##") + kind + "-speed";
  ImGui::SliderFloat(speed_id.c_str(), &p.speed, 0.25f, 32.0f, "%.2g steps/s", ImGuiSliderFlags_Logarithmic);
  access_slider("Speed", static_cast<double>(p.speed), 0.25, 32, "%.2g steps/s");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(4 * e, ImGui::GetContentRegionAvail().x));
  int shown = p.step();
  std::string scrub_id = std::string("##") + kind + "-scrub";
  char fmt[64];
  std::snprintf(fmt, sizeof fmt, "step %%d of %d", p.steps);
  if (ImGui::SliderInt(scrub_id.c_str(), &shown, 0, std::max(p.steps, 1), fmt)) {
    p.playing = false;
    p.pos = std::clamp(shown, 0, p.steps);
  }
  access_slider("Step", shown, 0, std::max(p.steps, 1), fmt);
  return p.playing;
}

bool draw_inputs(const UiEnv& ui, sim::WidgetValues& v, const char* only) {
  if (!v.kind) return false;
  bool changed = false;
  const float e = em(ui);
  std::string filter = std::string(",") + only + ",";
  const float avail = ImGui::GetContentRegionAvail().x;
  // Two columns of sliders on a wide column, one on a phone.
  const int columns = avail > 30 * e ? 2 : 1;
  const float col_w = (avail - (columns - 1) * ImGui::GetStyle().ItemSpacing.x) / columns;
  int col = 0;
  float row_y = 0;
  for (size_t i = 0; i < v.kind->inputs.size(); ++i) {
    const sim::WidgetInput& in = v.kind->inputs[i];
    if (*only && filter.find(std::string(",") + in.name + ",") == std::string::npos) continue;
    if (col > 0) {
      // SameLine after a group lines up text baselines, which pushes this column down by the
      // frame padding; the columns' tops should line up instead.
      ImGui::SameLine();
      ImGui::SetCursorPosY(row_y);
      ImGui::GetCurrentWindow()->DC.CurrLineTextBaseOffset = 0;  // SetCursorPosY keeps it
    } else {
      row_y = ImGui::GetCursorPosY();
    }
    ImGui::BeginGroup();
    // An on/off input is a checkbox named by its label (beside it, as its name: label in
    // name); a blank line above keeps it level with the labelled inputs beside it.
    const bool toggle = in.options.empty() && in.integer && in.min == 0 && in.max == 1;
    ImGui::TextDisabled("%s", toggle ? " " : in.label);
    ImGui::SetNextItemWidth(col_w);
    std::string id = std::string("##") + v.kind->kind + "-" + in.name;
    double& val = v.values[i];
    if (!in.options.empty()) {
      int cur = std::clamp(static_cast<int>(val), 0, static_cast<int>(in.options.size()) - 1);
      bool open = ImGui::BeginCombo(id.c_str(), in.options[cur]);
      // ImGui 1.86's combo reports no label to the item hooks: give the tests its id.
      {
        ImGuiContext& g = *GImGui;
        IMGUI_TEST_ENGINE_ITEM_INFO(ImGui::GetItemID(), id.c_str(), 0);
      }
      access_item(Role::Expander, std::string(in.label) + ": " + in.options[cur], "a list of choices", open ? 1 : 0);
      if (open) {
        for (size_t o = 0; o < in.options.size(); ++o) {
          bool sel = static_cast<int>(o) == cur;
          std::string oid = std::string(in.options[o]) + "###" + v.kind->kind + "-" + in.name + "-" + in.options[o];
          if (ImGui::Selectable(oid.c_str(), sel)) {
            val = static_cast<double>(o);
            changed = true;
          }
        }
        ImGui::EndCombo();
      }
    } else if (toggle) {
      // An on/off input: a checkbox, not a two-position slider.
      bool on = val != 0;
      std::string cid = std::string(in.label) + "###" + v.kind->kind + "-" + in.name;
      if (ImGui::Checkbox(cid.c_str(), &on)) {
        val = on ? 1 : 0;
        changed = true;
      }
      access_item(Role::Checkbox, in.label, "", on ? 1 : 0);
    } else if (in.integer && !in.log_scale) {
      int x = static_cast<int>(val);
      // "0 (auto)" keeps a %d so Ctrl+click typing still parses a number.
      const char* fmt = in.zero_is_auto && x == 0 ? "%d (auto)" : "%d";
      if (ImGui::SliderInt(id.c_str(), &x, static_cast<int>(in.min), static_cast<int>(in.max), fmt,
                           ImGuiSliderFlags_AlwaysClamp)) {
        val = x;
        changed = true;
      }
      access_slider(in.label, x, in.min, in.max, fmt);
        } else {
      // ImGui 1.86 has no double slider with log scale on ints: slide a double and round.
      double lo = in.min, hi = in.max, x = val;
      ImGuiSliderFlags flags = ImGuiSliderFlags_AlwaysClamp | (in.log_scale ? ImGuiSliderFlags_Logarithmic : 0);
      const bool is_auto = in.zero_is_auto && x == 0;
      const char* fmt = in.integer ? (is_auto ? "%.0f (auto)" : "%.0f") : (is_auto ? "%.3g (auto)" : "%.3g");
      if (ImGui::SliderScalar(id.c_str(), ImGuiDataType_Double, &x, &lo, &hi, fmt, flags)) {
        val = in.integer ? std::round(x) : x;
        changed = true;
      }
      access_slider(in.label, x, in.min, in.max, fmt);
        }
    ImGui::EndGroup();
    col = (col + 1) % columns;
  }
  return changed;
}

bool figure_tip(const UiEnv& ui, const char* id, const std::string& tip) {
  ImGuiContext& g = *GImGui;
  const ImRect bb(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  const std::string label = std::string("##") + id;
  const ImGuiID iid = ImGui::GetID(label.c_str());
  // An item of its own over the figure (NoNav: Tab does not stop on figures), so hovering is
  // ImGui's usual test and the pointer over a figure is not also over something else.
  if (!ImGui::ItemAdd(bb, iid, nullptr, ImGuiItemFlags_NoNav)) return false;
  // Listed for the tests with a mouse only: a finger does not hover, and every item a phone
  // lists must be a 44 px touch target (these are lines of text).
  if (!ui.coarse_pointer) IMGUI_TEST_ENGINE_ITEM_INFO(iid, label.c_str(), 0);
  if (tip.empty() || !ImGui::ItemHoverable(bb, iid)) return false;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34);
  ImGui::TextUnformatted(tip.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
  return true;
}

std::string json_str(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          out += b;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace dtx::web
