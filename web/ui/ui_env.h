// What drawing code needs to know of the page, and nothing more: the fonts, the pixel ratio,
// how the student points, whether motion is reduced. The app owns one (App::ui) and keeps it current; widgets
// and the shared controls take it instead of the app, so none of them includes app.h.
#pragma once

#include "ui/theme.h"

namespace dtx::web {

struct UiEnv {
  Fonts fonts;
  float dpr = 1;                // device pixels per CSS pixel (the canvas is drawn at this)
  bool coarse_pointer = false;  // (pointer: coarse): a finger; controls are at least 44 CSS px
  bool reduced_motion = false;  // prefers-reduced-motion: animations step instead of gliding
};

// The body font's size in pixels.
inline float em(const UiEnv& ui) { return ui.fonts.body ? ui.fonts.body->FontSize : 16.0f; }
// The smallest control a finger can hit: 44 CSS px (in framebuffer pixels) on a coarse
// pointer, else 0. Heights and widths of rows, lines and small buttons are at least this.
float touch_target(const UiEnv& ui);

}  // namespace dtx::web
