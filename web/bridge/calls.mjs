// Every call between the page's JavaScript and the engine's C++, declared once. The build
// generates both sides from this table (scripts/bridge.mjs): the C++ declarations and the
// exported entry points (build/wasm/generated/bridge/), Emscripten's export list, and the JS
// wrappers glue.js calls (bundled into dist/glue.js). A new call is one line here, then its
// C++ body (a `from_page::` function) or its JS body (a method of window.dtxGlue).
//
// Types: int, unsigned, float, double, bool; string (UTF-8; from JS a string, in C++ a
// std::string); bytes (a Uint8Array from JS, a std::string in C++). Returns: void, int,
// unsigned, double, bool, string (C++ -> JS: a string), string? (JS -> C++: a string or
// null, in C++ std::optional<std::string>). Memory for strings and bytes is the generated
// code's business on both sides: neither C++ nor the page frees anything by hand.

// The page calls the engine (C++ implements `dtx::web::from_page::NAME`; JS calls
// `engine.NAME_IN_CAMEL_CASE(...)`, which does nothing before the engine runs).
export const toEngine = [
  // input and wake-ups
  { name: 'wake', why: 'an event the frame loop should draw for' },
  { name: 'resize', args: ['float css_w', 'float css_h', 'float dpr'] },
  { name: 'wheel', args: ['float dx', 'float dy'], why: 'CSS pixels over the canvas (GLFW of 3.1.6 gets the sign and size wrong)' },
  { name: 'touch', args: ['int phase', 'float x', 'float y'], why: '0 start, 1 move, 2 end or cancel; CSS pixels of the canvas' },
  { name: 'text_input', args: ['string utf8'], why: 'characters from the hidden textarea (phone keyboards, IME)' },
  { name: 'key_tap', args: ['int which'], why: '0 Backspace, 1 Enter, from an on-screen keyboard' },
  { name: 'paste', args: ['string text'], why: 'the system clipboard, at a paste' },
  { name: 'frame_now', why: 'a frame inside a DOM event, so a field it opens can take the focus within the gesture' },
  { name: 'wants_text', returns: 'bool', why: 'a field is being typed in' },
  { name: 'system_prefs', args: ['bool dark', 'bool reduced_motion', 'bool coarse_pointer'] },
  // answers to what the engine asked the page for
  { name: 'on_fetch', args: ['int id', 'bool ok', 'int status', 'bytes body'], why: 'status 0 with a body: the body says why it failed' },
  { name: 'on_code_result', args: ['int id', 'string json'] },
  { name: 'on_image', args: ['int id', 'bool ok', 'double w', 'double h', 'bool fills', 'string reason'] },
  { name: 'on_file', args: ['string name', 'string text'], why: 'a file the student picked (a progress record)' },
  // where the page is, and instructors' sources
  { name: 'address', args: ['string fragment'], why: 'at load, Back, Forward, an address edited by hand' },
  { name: 'remember_scroll', args: ['string address', 'float css_y'], why: 'where a screen was scrolled before a reload' },
  { name: 'preview_url', args: ['string url'], why: '?pack=URL' },
  { name: 'preview_text', args: ['string name', 'string text'], why: 'a pack file dropped on the page' },
  { name: 'pack_changed', args: ['string file'], why: 'make serve saw a pack change' },
  { name: 'assign_url', args: ['string url'], why: '?assign=URL' },
  { name: 'instructor_allowed', args: ['bool on'], why: '?instructor' },
  // an assignment in an LMS (web/shell/glue/lms.js, web/course_lms.cpp)
  { name: 'lms_start', args: ['string learner_id', 'string suspend_data', 'double passing'], why: "the LMS's learner, resume state and passing score (< 0: none)" },
  { name: 'lms_sent', args: ['int reported', 'string problem'], why: 'what the LMS took: attempts sent so far, or why it did not ("" when it did)' },
  { name: 'first_view_answer', args: ['string json'], returns: 'bool', why: "what a linked exercise's HTML view held" },
  // the text layer (text-layer.js)
  { name: 'layer_scrolled', args: ['float css_y'], why: 'find in page scrolled the layer' },
  { name: 'pointer_on_text', why: 'a selection starts on the words: the open field closes' },
  { name: 'focus_control', args: ['unsigned id', 'bool activate'], why: "a control's DOM proxy took the focus or was activated" },
  { name: 'text_layer_enable', args: ['bool on'], why: '?layer=0, to measure what the layer costs' },
  // the test hook (window.dtx) and make bench
  { name: 'input_log', returns: 'string' },
  { name: 'drawn_runs', returns: 'string' },
  { name: 'heap_bytes', returns: 'double' },
];

// The engine calls the page (JS implements `window.dtxGlue.NAME_IN_CAMEL_CASE`; C++ calls
// `dtx::web::to_page::NAME(...)`).
export const toPage = [
  { name: 'ready', why: 'main() has set up the engine' },
  { name: 'first_frame', why: 'the first screen is drawn' },
  { name: 'css_width', returns: 'double' },
  { name: 'css_height', returns: 'double' },
  { name: 'device_pixel_ratio', returns: 'double' },
  { name: 'now_ms', returns: 'double' },
  { name: 'now_unix', returns: 'double' },
  { name: 'today', returns: 'string?', why: 'YYYY-MM-DD, local' },
  { name: 'random_token', returns: 'string?' },
  { name: 'mark', args: ['string name'], why: 'a performance mark for make bench' },
  { name: 'measure', args: ['string name', 'double start', 'double end'] },
  // storage and files
  { name: 'storage_get', args: ['string key'], returns: 'string?' },
  { name: 'storage_set', args: ['string key', 'string value'], returns: 'bool', why: 'false: the storage is full or off' },
  { name: 'storage_changed', args: ['string key'], returns: 'bool', why: 'another tab wrote the key since the last ask' },
  { name: 'fetch', args: ['int id', 'string url'], why: 'answered by on_fetch' },
  { name: 'download', args: ['string name', 'string text'] },
  { name: 'pick_file', why: 'answered by on_file' },
  { name: 'run_code', args: ['int id', 'string json'], why: 'answered by on_code_result' },
  // the engine's second part (scripts/split-wasm.mjs)
  { name: 'late_code_ready', returns: 'bool' },
  { name: 'want_late_code' },
  // addresses and links
  { name: 'set_address', args: ['string fragment', 'string title', 'bool push'] },
  { name: 'link_to', args: ['string fragment'], returns: 'string?' },
  { name: 'open_url', args: ['string url'] },
  { name: 'build_version', returns: 'string?', why: 'the site\'s version stamp (<meta name="dtx-version">), for a problem report' },
  { name: 'resolve_url', args: ['string base', 'string source'], returns: 'string?' },
  // pictures in pack texts (web/ui/images.h)
  { name: 'load_image', args: ['int id', 'string url'], why: 'answered by on_image' },
  { name: 'forget_image', args: ['int id'] },
  { name: 'raster_image', args: ['int id', 'int w', 'int h'], returns: 'unsigned', why: 'a GL texture name, 0 if it could not be made' },
  { name: 'free_texture', args: ['unsigned texture'] },
  // the DOM around the canvas
  { name: 'clipboard_set', args: ['string text'] },
  { name: 'text_focus', args: ['bool on'], why: 'the hidden textarea takes or leaves the focus' },
  { name: 'text_layer', args: ['string json', 'float scroll'] },
  { name: 'layer_scroll', args: ['float scroll'] },
  { name: 'lms_report', args: ['string json'], why: 'score, status, new interactions and resume state for the LMS (engine/scorm.h)' },
  { name: 'publish_state', args: ['string json'], why: "the test hook's state and the live region's words" },
];
