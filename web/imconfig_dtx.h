// dtx's additions to Dear ImGui's configuration (IMGUI_USER_CONFIG).
#pragma once

// ImGui asserts go to one function: the browser build logs them and keeps running (an
// assert in a view must not take the page down), the headless-UI test counts them as
// failures. Defined in web/platform/test_hook.cpp.
void dtx_imgui_assert(bool ok, const char* expr, const char* file, int line);
