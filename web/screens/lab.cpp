// The Lab: every widget for free play, with the engine's default inputs. The same widget
// objects are embedded in exercises (exercise_screen.cpp) with the instance's inputs.
#include "screens/screens.h"
#include "ui/text_layer.h"
#include "widgets/widgets.h"

namespace dtx::web {

void select_lab_widget(App& app, const std::string& kind) {
  const sim::WidgetKind* k = sim::find_widget_kind(kind);
  if (!k) return;
  app.widgets.lab_kind = kind;
  app.widgets.lab_widget = make_widget(kind);
  if (app.widgets.lab_widget) app.widgets.lab_widget->set_inputs(sim::WidgetValues::defaults(*k));
}

void draw_lab(App& app) {
  ImGui::PushFont(app.ui.fonts.heading);
  heading_text("Lab", 1);
  ImGui::PopFont();
  markdown(app, "Play with the simulations behind the exercises. Every number shown here is computed by the same "
                "engine that grades your answers.");
  ImGui::Spacing();
  if (!app.widgets.lab_widget) select_lab_widget(app, app.widgets.lab_kind.empty() ? "ring" : app.widgets.lab_kind);

  // One button per widget; they wrap onto several lines on a phone.
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  for (const sim::WidgetKind* k : sim::widget_kinds()) {
    std::string label = std::string(k->title) + "##lab-" + k->kind;
    float w = ImGui::CalcTextSize(k->title).x + ImGui::GetStyle().FramePadding.x * 2;
    if (k != sim::widget_kinds().front()) {
      ImGui::SameLine();
      if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
    }
    if (button(label.c_str(), app.widgets.lab_kind == k->kind)) select_lab_widget(app, k->kind);
  }
  const sim::WidgetKind* kind = sim::find_widget_kind(app.widgets.lab_kind);
  if (!kind) return;
  ImGui::Spacing();
  ImGui::PushFont(app.ui.fonts.bold);
  heading_text(kind->title, 2);
  ImGui::PopFont();
  ImGui::TextDisabled("%s", kind->summary);
  same_line_if_fits("Reset inputs##lab-reset");
  if (small_button(app.ui, "Reset inputs##lab-reset")) select_lab_widget(app, app.widgets.lab_kind);
  ImGui::Spacing();
  if (!app.widgets.lab_widget) {
    text_colored(color::wrong(), "This widget is not available in this build.");
    return;
  }
  const ImVec2 top = ImGui::GetCursorScreenPos();
  app.widgets.widget_animating |= app.widgets.lab_widget->draw(app.ui, app.stats.frame_dt);
  text_layer_description(app.widgets.lab_widget->describe(),
                         ImRect(top, ImVec2(top.x + ImGui::GetContentRegionAvail().x, ImGui::GetCursorScreenPos().y)));
  app.widgets.drawn_widget = app.widgets.lab_widget.get();
}

}  // namespace dtx::web
