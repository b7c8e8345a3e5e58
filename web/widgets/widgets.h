// Animated widgets: views over engine/sim. One file per kind; each keeps only view state
// (play position, speed, the inputs the student moved) and asks the engine for every number
// it draws, so a widget and an exercise graded on the same inputs always agree.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "figures.h"  // the widgets print figures as dtx sim does
#include "imgui.h"
#include "sim/widget.h"
#include "ui/ui_env.h"

namespace dtx::web {


struct Widget {
  virtual ~Widget() = default;
  // New inputs (the Lab's defaults, or an exercise instance's values). Re-runs the
  // simulation and rewinds the animation.
  virtual void set_inputs(const sim::WidgetValues& v) = 0;
  virtual const sim::WidgetValues& inputs() const = 0;
  // Draws at the cursor across the available width: controls, sliders, the picture, the
  // figures. `dt` is seconds since the last frame. Returns true while animating (the page
  // then keeps drawing frames).
  virtual bool draw(const UiEnv& ui, double dt) = 0;
  // A JSON object for window.dtx and the tests: {"kind", "step", "steps", "playing", ...}
  // plus the figures the widget shows (bubble, bytes per rank, memory per GPU...).
  virtual std::string state_json() const = 0;
  // What the picture shows now, in sentences, for a screen reader and for find in page (the
  // text layer puts it over the widget): the step and what it does, the figures, warnings.
  virtual std::string describe() const = 0;
};

std::unique_ptr<Widget> make_widget(std::string_view kind);
// One per file in web/widgets/.
std::unique_ptr<Widget> make_ring_widget();
std::unique_ptr<Widget> make_pipeline_widget();
std::unique_ptr<Widget> make_plan_widget();
std::unique_ptr<Widget> make_hierarchy_widget();
std::unique_ptr<Widget> make_roofline_widget();

// ---- shared controls (web/widgets/controls.cpp)

// Position in an animation of `steps` discrete steps; `pos` is fractional while playing so
// moving things (sends, arrows) can be drawn part-way.
struct Player {
  double pos = 0;      // 0..steps
  int steps = 0;
  bool playing = false;
  float speed = 1;     // steps per second
  double carry = 0;    // reduced motion: time toward the next whole step
  void rewind() { pos = 0; playing = false; carry = 0; }
  int step() const { return static_cast<int>(pos); }  // completed steps
  double frac() const { return pos - static_cast<int>(pos); }
};

// Play/Pause, Back, Step, Restart, a speed slider and a scrubber, ids "<kind>-play",
// "<kind>-back", "<kind>-step", "<kind>-restart", "<kind>-speed", "<kind>-scrub".
// Advances the player by dt while playing; returns true while it is playing.
bool draw_player(const UiEnv& ui, Player& p, const char* kind, double dt);

// A slider (or a combo, for choices) per input of the kind, ids "<kind>-<input>". Inputs
// listed in `only` (comma-separated names; empty = all) are drawn. Returns true when a value
// changed.
bool draw_inputs(const UiEnv& ui, sim::WidgetValues& v, const char* only = "");

// Makes the item just drawn (a figure's text, a row, a bar) a hover target that shows `tip`,
// the formula behind the figure with its source, in a tooltip. With a mouse it is listed for
// the tests as "<id>"; it is never a keyboard stop, so widgets also put the formulas in
// describe() for screen readers (and with a finger, where nothing hovers, the same text is in
// the text layer that way). Returns true while the tooltip shows.
bool figure_tip(const UiEnv& ui, const char* id, const std::string& tip);

// JSON string escaping for state_json.
std::string json_str(std::string_view s);

}  // namespace dtx::web
