#include "progress_store.h"

#include <algorithm>

#include "text.h"

namespace dtx::web {
namespace {

constexpr const char* kStorageFull =
    "Progress could not be saved: browser storage is full (or turned off). Everything saved before is still "
    "there, and this page keeps your new progress and saves it all at the next save once there is room "
    "(remove other sites' data to make some).";

}  // namespace

std::string problem_list(const std::vector<std::string>& problems) {
  const size_t shown = 6;
  std::string list;
  for (size_t i = 0; i < problems.size() && i < shown; ++i) list += (i ? "; " : "") + problems[i];
  if (problems.size() > shown) list += "; and " + std::to_string(problems.size() - shown) + " more";
  return list;
}

void ProgressStore::add_notice(const std::string& text) {
  if (std::find(notices_.begin(), notices_.end(), text) == notices_.end()) notices_.push_back(text);
}

// Keeps `text` under `key`; a key that already holds exactly this text is left alone, so
// loading the page twice with the same bad record keeps one copy.
ProgressStore::Kept ProgressStore::keep_aside(const char* key, const std::string& text) {
  auto old = platform_->storage_get(key);
  if (old && *old == text) return Kept::Already;
  if (!platform_->storage_set(key, text)) return Kept::Failed;
  return old ? Kept::Replaced : Kept::Copied;
}

std::string ProgressStore::new_writer_id() {
  // Seconds first: writers order by age, and the oldest are the ones folded (engine/progress.h).
  return std::to_string(platform_->now_unix()) + "-" + platform_->random_token();
}

// A stored record that is unreadable, or read with problems, is copied aside before anything
// is written over it; the notice says where, and whether it replaced an older copy.
bool ProgressStore::keep_bad_record(const std::string& text, const ProgressRead& r) {
  Kept k = keep_aside(kUnreadableKey, text);
  std::string where =
      k == Kept::Failed ? "could not be copied aside (browser storage is full); it is left in place, and nothing is "
                          "saved over it until there is room"
                        : std::string("kept unchanged in this browser's storage under \"") + kUnreadableKey + "\"" +
                              (k == Kept::Replaced ? " (it replaced an older record kept there: one is kept, so "
                                                     "backups never fill the storage)"
                                                   : "");
  if (r.unreadable) {
    add_notice("Your saved progress could not be read (" +
               (r.problems.empty() ? std::string("not a progress record") : r.problems.front()) +
               "). The old record was " + where + ", and a fresh record was started.");
  } else {
    add_notice("Part of your saved progress could not be read as stored (" + problem_list(r.problems) +
               "). Everything else was restored; the full old record was " + where + ".");
  }
  return k != Kept::Failed;
}

void ProgressStore::save_failed() {
  save_error = kStorageFull;
  add_notice(kStorageFull);
}

void ProgressStore::save_worked() {
  if (save_error.empty()) return;
  std::erase(notices_, save_error);
  save_error.clear();
}

void ProgressStore::start(Platform* platform) {
  platform_ = platform;
  writer_id = new_writer_id();
  auto text = platform_->storage_get(kKey);
  if (!text) return;
  ProgressRead r = read_progress(*text);
  if (r.unreadable || !r.problems.empty()) keep_bad_record(*text, r);
  progress = std::move(r.progress);
}

bool ProgressStore::save() {
  // Read, merge, write: writing this page's record alone would drop another tab's work.
  auto stored = platform_->storage_get(kKey);
  if (stored) {
    ProgressRead r = read_progress(*stored);
    if ((r.unreadable || !r.problems.empty()) && !keep_bad_record(*stored, r)) {
      save_failed();
      return false;
    }
    progress = merge_progress(progress, r.progress);
  }
  // Whether or not it is written, the page keeps everything: the next save writes it.
  std::string text = write_progress(progress);
  if (stored && *stored == text) {
    save_worked();
    return true;
  }
  if (!platform_->storage_set(kKey, text)) {
    save_failed();
    return false;
  }
  save_worked();
  return true;
}

// If this page knows something the stored record lacks (its save raced the other tab's, or
// failed), it saves again; merging what is already in changes nothing, so two tabs never
// answer each other forever.
void ProgressStore::take_in_other_tabs() {
  if (!platform_->storage_changed_elsewhere(kKey)) return;
  auto text = platform_->storage_get(kKey);
  if (!text) return;  // removed: this page's record is written back at its next save
  ProgressRead r = read_progress(*text);
  if (r.unreadable) {
    keep_bad_record(*text, r);
    return;
  }
  Progress merged = merge_progress(progress, r.progress);
  bool stored_lacks = merged != r.progress || !r.problems.empty();
  progress = std::move(merged);
  if (stored_lacks) save();
}

void ProgressStore::record(const std::string& id, uint64_t seed, const Feedback& fb) {
  // Another tab folded this page's writer (engine/progress.h): count on under a new one.
  if (auto it = progress.exercises.find(id); it != progress.exercises.end() && writer_folded(it->second, writer_id))
    writer_id = new_writer_id();
  record_attempt(progress, writer_id, id, fb, platform_->now_unix(), platform_->today());
  record_mistakes(progress, writer_id, id, seed, fb, platform_->now_unix());
  save();
}

void ProgressStore::opened(const std::string& id) {
  if (progress.last_exercise == id) return;
  progress.last_exercise = id;
  progress.last_exercise_at = platform_->now_unix();
  save();
}

std::string ProgressStore::import_file(const std::string& name, const std::string& text) {
  if (text.size() > kMaxImportBytes)
    return name + " is " + format_number(static_cast<double>(text.size()) / 1e6, 3) + " MB; a progress file is at most " +
           std::to_string(kMaxImportBytes / 1000000) + " MB (what browser storage holds). Nothing was changed.";
  ProgressRead r = read_progress(text);
  if (r.unreadable)
    return name + " is not a dtx progress file" + (r.problems.empty() ? std::string(".") : ": " + r.problems.front() + ".") +
           " Nothing was changed.";
  if (r.progress.exercises.size() > kMaxImportRecords)
    return name + " holds " + std::to_string(r.progress.exercises.size()) + " exercise records; a progress file has at most " +
           std::to_string(kMaxImportRecords) + " (one per exercise of a course). Nothing was changed.";
  // The record before the import is kept, so an import by mistake can be undone by hand; if
  // it cannot be kept, nothing is imported.
  Kept kept = Kept::Already;
  if (auto old = platform_->storage_get(kKey)) kept = keep_aside(kBeforeImportKey, *old);
  if (kept == Kept::Failed)
    return name + " was not imported: browser storage is full, so your current record could not be kept aside first. "
                  "Nothing was changed.";
  // Merged, not replaced: other tabs would merge their records back anyway, and a file
  // imported twice (or this browser's own export) counts no attempt twice.
  const size_t records = r.progress.exercises.size();
  progress = merge_progress(progress, r.progress);
  const bool saved = save();
  std::string message = "Imported " + name + ": " + std::to_string(records) + " exercise records merged into your progress.";
  if (kept != Kept::Already)
    message += std::string(" The record before the import is kept under \"") + kBeforeImportKey + "\"" +
               (kept == Kept::Replaced ? ", replacing the one kept at the previous import." : ".");
  if (!r.problems.empty())
    message += " Problems in the file (" + std::to_string(r.problems.size()) + "): " + problem_list(r.problems) + ".";
  if (!saved) message += " Not saved yet: browser storage is full.";
  return message;
}

}  // namespace dtx::web
