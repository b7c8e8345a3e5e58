// Whether anything of a returning student's is stored (progress, an assignment's log, a
// setting): reading it runs the engine's second part, so the page asks for both parts at
// start. One definition for the two bundles that decide it (first-screen/engine-files.js,
// which preloads the part, and glue/start.js, which awaits it).
export function storedState() {
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith('dtx.') && k !== 'dtx.version') return true;
    }
  } catch (e) { /* no storage here: nothing stored */ }
  return false;
}
