// dtx's additions to Dear ImGui's configuration (IMGUI_USER_CONFIG).
#pragma once

// ImGui asserts go to one function: the browser build logs them and keeps running (an
// assert in a view must not take the page down), the headless-UI test counts them as
// failures. Defined in web/platform/test_hook.cpp.
void dtx_imgui_assert(bool ok, const char* expr, const char* file, int line);

// Defined here, not on the compiler command line: CMake drops function-style definitions
// (target_compile_definitions "IM_ASSERT(_EXPR)=..." never reached the compiler, so ImGui
// fell back to assert(), a no-op in Release builds). The condition is tested inline; the
// function is only called when it fails.
#define IM_ASSERT(_EXPR) ((_EXPR) ? (void)0 : dtx_imgui_assert(false, #_EXPR, __FILE__, __LINE__))
