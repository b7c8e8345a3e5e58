// The student's progress as this page keeps it: the record in memory, its place in the
// browser's storage (one key, and one copy aside of each kind: an unreadable record, the record
// before an import), the merge with what other tabs saved, import from a file, and the notices
// a student must read when something went wrong. It uses the platform's storage calls only, so
// a test drives it with a fake platform and no app (tests/ui/test_progress_store.cpp). The
// record's format and its merge are the engine's (engine/progress.h).
#pragma once

#include <string>
#include <vector>

#include "model.h"
#include "platform/platform.h"
#include "progress.h"

namespace dtx::web {

class ProgressStore {
 public:
  // `notices`: the page's list of things a student must read (the course map shows it).
  explicit ProgressStore(std::vector<std::string>& notices) : notices_(notices) {}

  // At start: this page's writer id, and the stored record read (a bad one kept aside).
  void start(Platform* platform);
  // Reads, merges and writes: another tab may have saved since this page last looked. False
  // when the storage is full; the page keeps everything and the next save writes it.
  bool save();
  // Another tab wrote the record: take in what it knows (called once a frame).
  void take_in_other_tabs();
  // A graded attempt on exercise `id`, counted under this page's writer, and saved.
  // A graded answer whose feedback the student saw: the attempt, and what was wrong in it (the
  // log of mistakes, #/review).
  void record(const std::string& id, uint64_t seed, const Feedback& fb);
  // Exercise `id` was opened: the course map's "Continue" leads there.
  void opened(const std::string& id);
  // A progress file the student picked, merged in; the sentence that says what happened.
  std::string import_file(const std::string& name, const std::string& text);

  Progress progress;
  std::string writer_id;   // this page load's attempts counter in the merged record
  std::string save_error;  // the last save failed (storage full); cleared by the next that works

  static constexpr const char* kKey = "dtx.progress";
  // One copy of each kind, under a fixed key: a newer one replaces the older, so copies can
  // never fill the storage.
  static constexpr const char* kUnreadableKey = "dtx.progress.unreadable";
  static constexpr const char* kBeforeImportKey = "dtx.progress.before-import";

 private:
  enum class Kept { Already, Copied, Replaced, Failed };
  Kept keep_aside(const char* key, const std::string& text);
  bool keep_bad_record(const std::string& text, const ProgressRead& r);
  void add_notice(const std::string& text);
  void save_failed();
  void save_worked();
  std::string new_writer_id();

  Platform* platform_ = nullptr;
  std::vector<std::string>& notices_;
};

// Up to six problems of a record, joined, and how many more there are.
std::string problem_list(const std::vector<std::string>& problems);

}  // namespace dtx::web
