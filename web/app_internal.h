// What the app's own files share: app.cpp (the screens' frame, opening and submitting an
// exercise), loading.cpp (fetches, packs, previews) and navigation.cpp (the address). Screens,
// views and widgets use app.h only.
#pragma once

#include <map>
#include <string>

#include "app.h"

namespace dtx::web {

// ---- loading.cpp
// At start: the fonts, the pack index and the outline asked for.
void request_start_files(App& app);
// Asks the platform for `url`; its answer is routed by the id kept in `into` with `tag`.
void request(App& app, const std::string& url, std::map<int, std::string>& into, const std::string& tag);
void request_pack(App& app, const std::string& file);
// The pack the outline places exercise `id` in.
void request_pack_of(App& app, const std::string& id);
std::string outline_file_of(const App& app, const std::string& id);
std::string outline_file_of_chapter(const App& app, int chapter);

// ---- navigation.cpp
// Shows the screen `r` names (or keeps it pending until its pack is in).
void apply_route(App& app, const Route& r);
// The address bar and the title follow the screen on show.
void sync_address(App& app);

}  // namespace dtx::web
