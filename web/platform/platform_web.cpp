#include "platform/platform_web.h"

#include <cstdlib>

#include <emscripten.h>

// Strings returned from JS are malloc'ed copies; the C++ side frees them.
EM_JS(char*, js_storage_get, (const char* key), {
  return dtxGlue.storageGet(UTF8ToString(key));
});
EM_JS(int, js_storage_set, (const char* key, const char* value), {
  return dtxGlue.storageSet(UTF8ToString(key), UTF8ToString(value)) ? 1 : 0;
});
EM_JS(int, js_storage_changed, (const char* key), {
  return dtxGlue.storageChanged(UTF8ToString(key)) ? 1 : 0;
});
EM_JS(char*, js_random_token, (), { return dtxGlue.randomToken(); });
EM_JS(void, js_fetch, (int id, const char* url), { dtxGlue.fetch(id, UTF8ToString(url)); });
EM_JS(void, js_run_code, (int id, const char* json), { dtxGlue.runCode(id, UTF8ToString(json)); });
EM_JS(void, js_download, (const char* name, const char* text), { dtxGlue.download(UTF8ToString(name), UTF8ToString(text)); });
EM_JS(void, js_pick_file, (), { dtxGlue.pickFile(); });
EM_JS(void, js_open_url, (const char* url), { dtxGlue.openUrl(UTF8ToString(url)); });
EM_JS(void, js_set_address, (const char* fragment, const char* title, int push), {
  dtxGlue.setAddress(UTF8ToString(fragment), UTF8ToString(title), !!push);
});
EM_JS(char*, js_link_to, (const char* fragment), { return dtxGlue.linkTo(UTF8ToString(fragment)); });
EM_JS(void, js_publish_state, (const char* json), { dtxGlue.publishState(UTF8ToString(json)); });
EM_JS(char*, js_today, (), { return dtxGlue.today(); });
EM_JS(double, js_now_unix, (), { return Math.floor(Date.now() / 1000); });
EM_JS(double, js_now_ms, (), { return performance.now(); });
// Pictures in pack texts (ui/images.h). The browser loads them (glue.js); drawing one into a
// texture happens here, where Emscripten's GL object is in scope: a canvas draws the image at
// the size asked for (an SVG is rasterised at that size, so it stays sharp), the texture is
// made with the context's own calls and registered in GL.textures the way glGenTextures does,
// so ImGui's OpenGL3 backend binds it by its name. The 2D texture binding is put back.
EM_JS(char*, js_resolve_url, (const char* base, const char* source), {
  return dtxGlue.resolveUrl(UTF8ToString(base), UTF8ToString(source));
});
EM_JS(void, js_load_image, (int id, const char* url), { dtxGlue.loadImage(id, UTF8ToString(url)); });
EM_JS(void, js_forget_image, (int id), { dtxGlue.forgetImage(id); });
EM_JS(unsigned, js_raster_image, (int id, int w, int h), {
  const gl = typeof GLctx !== 'undefined' ? GLctx : null;
  if (!gl || w < 1 || h < 1) return 0;
  let tex = null;
  const previous = gl.getParameter(gl.TEXTURE_BINDING_2D);
  try {
    const canvas = dtxGlue.drawImage(id, w, h);
    if (!canvas) return 0;
    tex = gl.createTexture();
    if (!tex) return 0;
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, canvas);
    canvas.width = canvas.height = 1;  // its pixels are the texture's now: free them
    const name = GL.getNewId(GL.textures);
    tex.name = name;
    GL.textures[name] = tex;
    return name;
  } catch (e) {
    // A canvas the image tainted (another origin without CORS), or a lost context.
    console.warn('dtx: could not draw an image into a texture: ' + e);
    if (tex) gl.deleteTexture(tex);
    return 0;
  } finally {
    gl.bindTexture(gl.TEXTURE_2D, previous);
  }
});
EM_JS(void, js_free_texture, (unsigned name), {
  const tex = GL.textures[name];
  if (tex && typeof GLctx !== 'undefined') GLctx.deleteTexture(tex);
  GL.textures[name] = null;
});
EM_JS(void, js_clipboard_set, (const char* text), { dtxGlue.clipboardSet(UTF8ToString(text)); });
EM_JS(void, js_text_focus, (int on), { dtxGlue.textFocus(!!on); });
EM_JS(void, js_first_frame, (), { dtxGlue.firstFrame(); });
EM_JS(int, js_late_code_ready, (), { return dtxGlue.lateCodeReady() ? 1 : 0; });
EM_JS(void, js_want_late_code, (), { dtxGlue.loadLateCode('a pack arrived'); });
EM_JS(void, js_text_layer, (const char* json, float scroll), { dtxGlue.textLayer(UTF8ToString(json), scroll); });
EM_JS(void, js_layer_scroll, (float scroll), { dtxGlue.layerScroll(scroll); });

namespace dtx::web {

static std::optional<std::string> take(char* p) {
  if (!p) return std::nullopt;
  std::string s(p);
  std::free(p);
  return s;
}

std::optional<std::string> WebPlatform::storage_get(const std::string& key) { return take(js_storage_get(key.c_str())); }
bool WebPlatform::storage_set(const std::string& key, const std::string& value) {
  return js_storage_set(key.c_str(), value.c_str()) != 0;
}
bool WebPlatform::storage_changed_elsewhere(const std::string& key) { return js_storage_changed(key.c_str()) != 0; }
std::string WebPlatform::random_token() { return take(js_random_token()).value_or("0"); }
void WebPlatform::fetch(int id, const std::string& url) { js_fetch(id, url.c_str()); }
void WebPlatform::run_code(int id, const std::string& json) { js_run_code(id, json.c_str()); }
void WebPlatform::download(const std::string& name, const std::string& text) { js_download(name.c_str(), text.c_str()); }
void WebPlatform::pick_file() { js_pick_file(); }
void WebPlatform::open_url(const std::string& url) { js_open_url(url.c_str()); }
void WebPlatform::set_address(const std::string& fragment, const std::string& title, bool push) {
  js_set_address(fragment.c_str(), title.c_str(), push ? 1 : 0);
}
std::string WebPlatform::link_to(const std::string& fragment) { return take(js_link_to(fragment.c_str())).value_or(fragment); }
void WebPlatform::publish_state(const std::string& json) { js_publish_state(json.c_str()); }
bool WebPlatform::late_code_ready() { return js_late_code_ready() != 0; }
void WebPlatform::want_late_code() { js_want_late_code(); }
std::string WebPlatform::resolve_url(const std::string& base, const std::string& source) {
  return take(js_resolve_url(base.c_str(), source.c_str())).value_or("");
}
void WebPlatform::load_image(int id, const std::string& url) { js_load_image(id, url.c_str()); }
unsigned WebPlatform::raster_image(int id, int w, int h) { return js_raster_image(id, w, h); }
void WebPlatform::free_texture(unsigned texture) { js_free_texture(texture); }
void WebPlatform::forget_image(int id) { js_forget_image(id); }
std::string WebPlatform::today() { return take(js_today()).value_or("1970-01-01"); }
int64_t WebPlatform::now_unix() { return static_cast<int64_t>(js_now_unix()); }
double WebPlatform::now_ms() { return js_now_ms(); }

void web_clipboard_set(const char* text) { js_clipboard_set(text); }
void web_text_focus(bool on) { js_text_focus(on ? 1 : 0); }
void web_first_frame() { js_first_frame(); }
void web_text_layer(const char* json, float scroll_css) { js_text_layer(json, scroll_css); }
void web_layer_scroll(float scroll_css) { js_layer_scroll(scroll_css); }

}  // namespace dtx::web
