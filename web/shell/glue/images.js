// Pictures in pack texts (web/ui/images.h): the browser loads each image once and keeps it
// while the engine does; the engine asks for it drawn at the size it shows it, into a texture
// made here (rasterImage). crossOrigin 'anonymous': an image from another origin that allows
// it (CORS) can be drawn into a texture; one that does not, fails to load instead of tainting
// the canvas.
import { blockedByCsp, cspImagesBlocked } from './csp.js';
import { engine } from './page.js';

const images = new Map();  // request id -> HTMLImageElement
let imageCanvas = null;
function reportImage(id, ok, w, h, fills, why) {
  engine.onImage(id, ok, w, h, fills, why);
}
// An SVG's own width, height and viewBox (its root tag), when the page may read it (the same
// origin: connect-src): an SVG without a width and height has no size of its own (browsers
// make one up: 300 x 150 in Chromium, 0 in others) and fills the text column instead.
function svgSize(url) {
  let u;
  try { u = new URL(url); } catch (e) { return Promise.resolve(null); }
  if (!/\.svg$/i.test(u.pathname) || u.origin !== location.origin) return Promise.resolve(null);
  return fetch(u.href).then((r) => (r.ok ? r.text() : null)).then((text) => {
    const root = text && /<svg\b[^>]*>/i.exec(text.slice(0, 65536));
    if (!root) return null;
    const attr = (name) => {
      const m = new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(root[0]);
      return m ? m[1].trim() : '';
    };
    const length = (v) => (v && !v.endsWith('%') && parseFloat(v) > 0 ? parseFloat(v) : 0);
    const box = attr('viewBox').split(/[\s,]+/).map(Number);
    return { width: length(attr('width')), height: length(attr('height')), box: box.length === 4 && box[2] > 0 && box[3] > 0 ? box : null };
  }).catch(() => null);
}
export function loadImage(id, url) {
  const img = new Image();
  img.crossOrigin = 'anonymous';
  img.decoding = 'async';
  images.set(id, img);
  const loaded = new Promise((resolve, reject) => { img.onload = resolve; img.onerror = reject; });
  img.src = url;
  Promise.all([loaded, svgSize(url)]).then(([, svg]) => {
    if (images.get(id) !== img) return;  // forgotten meanwhile
    let w = img.naturalWidth, h = img.naturalHeight, fills = false;
    if (svg && !svg.width && !svg.height) {
      fills = true;
      if (svg.box) [w, h] = [svg.box[2], svg.box[3]];
    }
    if (!(w > 0 && h > 0)) { reportImage(id, false, 0, 0, false, `image could not be loaded: ${url} (it has no size)`); return; }
    reportImage(id, true, w, h, fills, '');
  }, () => {
    if (images.get(id) !== img) return;
    // The violation event is queued as its own task: give it one before deciding.
    setTimeout(() => {
      const csp = blockedByCsp(url, cspImagesBlocked);
      reportImage(id, false, 0, 0, false, `image could not be loaded: ${url}` + (csp
        ? " (blocked by this site's Content-Security-Policy: img-src allows only the site's own address; see docs/self-hosting.md)"
        : ''));
    }, 50);
  });
}

export function forgetImage(id) {
  const img = images.get(id);
  if (!img) return;
  images.delete(id);
  img.onload = img.onerror = null;
  img.removeAttribute('src');
}

// A canvas holding image `id` drawn at w x h pixels (an SVG rasterised at that size), or null.
function drawImage(id, w, h) {
  const img = images.get(id);
  if (!img || !img.complete || !img.naturalWidth) return null;
  imageCanvas = imageCanvas || document.createElement('canvas');
  imageCanvas.width = w;
  imageCanvas.height = h;
  const ctx = imageCanvas.getContext('2d');
  ctx.clearRect(0, 0, w, h);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(img, 0, 0, w, h);
  return imageCanvas;
}

// Image `id` drawn into a texture of w x h pixels; its GL name, or 0. The texture is made with
// the engine's own WebGL context and registered in Emscripten's GL.textures the way
// glGenTextures does, so ImGui's OpenGL3 backend binds it by that name. (GL and GLctx are
// globals of dtx.js, which is built without MODULARIZE.) The 2D texture binding is put back.
export function rasterImage(id, w, h) {
  const gl = typeof GLctx !== 'undefined' ? GLctx : null;  // eslint-disable-line no-undef
  if (!gl || w < 1 || h < 1) return 0;
  let tex = null;
  const previous = gl.getParameter(gl.TEXTURE_BINDING_2D);
  try {
    const canvas = drawImage(id, w, h);
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
    const name = GL.getNewId(GL.textures);  // eslint-disable-line no-undef
    tex.name = name;
    GL.textures[name] = tex;  // eslint-disable-line no-undef
    return name;
  } catch (e) {
    // A canvas the image tainted (another origin without CORS), or a lost context.
    console.warn('dtx: could not draw an image into a texture: ' + e);
    if (tex) gl.deleteTexture(tex);
    return 0;
  } finally {
    gl.bindTexture(gl.TEXTURE_2D, previous);
  }
}

export function freeTexture(name) {
  const tex = GL.textures[name];  // eslint-disable-line no-undef
  if (tex && typeof GLctx !== 'undefined') GLctx.deleteTexture(tex);  // eslint-disable-line no-undef
  GL.textures[name] = null;  // eslint-disable-line no-undef
}
