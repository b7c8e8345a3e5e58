// What each control is, for the text layer's accessible proxies (ui/text_layer.h): its role,
// accessible name and state. ImGui knows an item's ID, label and rectangle but not what it is
// to a screen reader (a Selectable is an option in one view, a line of code in another, a
// link on the course map), so a view says so right after drawing the item:
//
//   if (ImGui::Selectable(id, on, ...)) ...;
//   access_item({Role::Radio, "B. 2(N-1)/N times the buffer", on});
//
// An item no view describes gets a role from ImGui's own status (a checkbox is checkable, a
// tree node openable, a text field marked by mark_text_field) and its visible label as name.
#pragma once

#include <string>
#include <vector>

#include "imgui.h"

namespace dtx::web {

struct MdRun;

enum class Role {
  Auto,      // from ImGui's status flags: button, checkbox, expander or text field
  Button,
  Link,      // moves to another screen (course map entries, Next)
  Checkbox,
  Radio,     // one of a group, one picked
  Textbox,   // a one-line answer field
  Textarea,  // the code editor
  Slider,
  Row,       // an ordering row: a toggle button (selected to move with the arrows)
  Line,      // a buggy-line listing's line: a toggle button
  Expander,  // shows or hides a section (a chapter, "About this chapter")
};

struct Access {
  Role role = Role::Auto;
  std::string name;    // "" = the item's visible label
  std::string desc;    // read after the name and role: a unit, a position, how to act
  int checked = -1;    // Checkbox, Radio: checked; Row, Line: pressed; Expander: expanded
  std::string group;   // consecutive controls with the same group form one named group
  bool has_value = false;  // Slider
  double value = 0, min = 0, max = 0;
  std::string value_text;  // the value as the page writes it ("8 stages", "1.5 GB")
  int heading = 0;         // an expander that heads its section: the heading's level
  // Textbox, Textarea: the text in it (value_text) and what it shows while empty
  std::string placeholder;
  // Link: the address it opens ("#/ex/ring.volume"): the layer makes it a real link, so a
  // middle-click, Ctrl+click or the context menu opens it in another tab.
  std::string href;
  // Expander, closed: the words it hides (a chapter's exercise titles), which find in page
  // still reaches: the layer keeps them hidden until found, and a match goes to the address
  // that shows them (href: "#/chapter/N").
  std::vector<std::string> hidden_words;
};

// Describes ImGui's last item (call right after it, also when it is scrolled out of view).
void access_item(Access a);

// The same for the usual case: a role, a name, what else to say, its checked (pressed,
// expanded) state and its group.
void access_item(Role role, std::string name, std::string desc = "", int checked = -1, std::string group = "");

// A link to another screen of the site (its address, "#/ex/ID").
void link_item(std::string name, std::string href);

// The description of an item this frame, or nullptr.
const Access* access_find(ImGuiID id);

// Starts a frame's record.
void access_begin_frame();

// Role names as ARIA spells them (role attribute), for the layer's JSON.
const char* access_role_name(Role r);

// Markdown runs as the words a reader hears: maths in plain text, no markup.
std::string access_plain(const std::vector<MdRun>& runs);
// The same for a Markdown string (a part label, a message).
std::string access_plain(const std::string& markdown);

}  // namespace dtx::web
