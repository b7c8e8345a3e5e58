// The stand-in LMS's side (tests/e2e/scorm.mjs drives it). An attempt of the SCO starts with
// launch(learner, saved, passing, src): a fresh scorm-again runtime, loaded with what the LMS kept from the
// learner's earlier session (their cmi, with entry "resume" when they left suspended), then the
// package's index.html in a frame. window.lms.kept() is what the LMS stored (at each commit);
// window.lms.down makes the runtime refuse to commit, as an LMS out of reach does.
/* global Scorm2004API */
window.lms = {
  api: null,
  down: false,
  stored: null,
  launch(learner, saved, passing, src = 'package/index.html') {
    const api = new Scorm2004API({ autocommit: false, logLevel: 5 });
    const cmi = saved ? JSON.parse(JSON.stringify(saved)) : {};
    cmi.learner_id = learner;
    cmi.learner_name = 'Learner ' + learner;
    // from the manifest's minNormalizedMeasure, as an LMS sets it
    if (passing !== undefined) cmi.scaled_passing_score = String(passing);
    cmi.entry = saved && saved.exit === 'suspend' ? 'resume' : 'ab-initio';
    delete cmi.exit;
    delete cmi.session_time;
    delete cmi.total_time;
    api.loadFromJSON(cmi, '');
    // What the LMS has stored: the runtime's data as of its last commit (and its end).
    this.stored = JSON.parse(JSON.stringify(api.cmi));
    const commit = api.Commit.bind(api), terminate = api.Terminate.bind(api);
    api.Commit = (arg) => {
      if (window.lms.down) return 'false';
      const ok = commit(arg);
      if (String(ok) === 'true') this.stored = JSON.parse(JSON.stringify(api.cmi));
      return ok;
    };
    api.Terminate = (arg) => {
      const ok = terminate(arg);
      if (String(ok) === 'true' && !window.lms.down) this.stored = JSON.parse(JSON.stringify(api.cmi));
      return ok;
    };
    window.API_1484_11 = this.api = api;
    document.querySelectorAll('iframe').forEach((f) => f.remove());
    const frame = document.createElement('iframe');
    frame.title = 'the assignment';
    frame.src = src;
    document.body.appendChild(frame);
  },
  // The learner's cmi as the LMS stored it.
  kept() { return this.stored; },
  value(name) { return this.api.GetValue(name); },
  terminated() { return this.api.isTerminated(); },
};
