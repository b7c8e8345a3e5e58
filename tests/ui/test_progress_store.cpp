// The progress store alone, without the app: two tabs sharing one browser's storage, a full
// storage, a corrupt record kept aside, and import.
#include <gtest/gtest.h>

#include "fake_platform.h"
#include "progress_store.h"

namespace dtx::web {
namespace {

Feedback verdict(Verdict v, double score) {
  Feedback fb;
  fb.verdict = v;
  fb.score = score;
  return fb;
}

// Two stores over the same storage are two tabs of one browser.
struct Tab {
  std::vector<std::string> notices;
  ProgressStore store{notices};
};

TEST(ProgressStore, StartsEmptyWithAWriterOfThisLoad) {
  testing::FakePlatform pf;
  Tab t;
  t.store.start(&pf);
  EXPECT_TRUE(t.store.progress.exercises.empty());
  EXPECT_EQ(t.store.writer_id.rfind(std::to_string(pf.unix_time) + "-", 0), 0u) << t.store.writer_id;
  EXPECT_TRUE(t.notices.empty());
  EXPECT_FALSE(pf.storage.count(ProgressStore::kKey)) << "nothing is written before there is something to keep";
}

TEST(ProgressStore, TwoTabsKeepEachOthersAttempts) {
  testing::FakePlatform pf;
  Tab a, b;
  a.store.start(&pf);
  b.store.start(&pf);
  a.store.record("ring.volume", 0, verdict(Verdict::Incorrect, 0));
  b.store.record("ring.volume", 0, verdict(Verdict::Correct, 1));  // b's save merges a's record first
  ProgressRead stored = read_progress(pf.storage[ProgressStore::kKey]);
  ASSERT_FALSE(stored.unreadable);
  EXPECT_EQ(stored.progress.exercises["ring.volume"].attempts(), 2);
  EXPECT_EQ(stored.progress.exercises["ring.volume"].best_score, 1);
  // a hears of b's save (the storage event) and takes it in; nothing new to write back
  const std::string before = pf.storage[ProgressStore::kKey];
  pf.changed_elsewhere.insert(ProgressStore::kKey);
  a.store.take_in_other_tabs();
  EXPECT_EQ(a.store.progress.exercises["ring.volume"].attempts(), 2);
  EXPECT_EQ(pf.storage[ProgressStore::kKey], before) << "merging what is already stored writes nothing";
  // no event: nothing read
  b.store.progress.exercises.clear();
  b.store.take_in_other_tabs();
  EXPECT_TRUE(b.store.progress.exercises.empty());
}

TEST(ProgressStore, AFullStorageIsSaidOnceAndClearedByTheNextSave) {
  testing::FakePlatform pf;
  Tab t;
  t.store.start(&pf);
  pf.storage_full = true;
  t.store.record("zero.stages", 0, verdict(Verdict::Partial, 0.5));
  t.store.record("zero.stages", 0, verdict(Verdict::Partial, 0.5));
  EXPECT_FALSE(t.store.save_error.empty());
  ASSERT_EQ(t.notices.size(), 1u) << "the same notice once";
  EXPECT_NE(t.notices[0].find("browser storage is full"), std::string::npos);
  EXPECT_EQ(t.store.progress.exercises["zero.stages"].attempts(), 2) << "the page keeps what it could not save";
  pf.storage_full = false;
  EXPECT_TRUE(t.store.save());
  EXPECT_TRUE(t.store.save_error.empty());
  EXPECT_TRUE(t.notices.empty());
  EXPECT_EQ(read_progress(pf.storage[ProgressStore::kKey]).progress.exercises["zero.stages"].attempts(), 2);
}

TEST(ProgressStore, AnUnreadableRecordIsKeptAsideOnce) {
  testing::FakePlatform pf;
  pf.storage[ProgressStore::kKey] = "[1, 2";
  Tab t;
  t.store.start(&pf);
  EXPECT_EQ(pf.storage[ProgressStore::kUnreadableKey], "[1, 2");
  ASSERT_EQ(t.notices.size(), 1u);
  EXPECT_NE(t.notices[0].find(ProgressStore::kUnreadableKey), std::string::npos) << t.notices[0];
  t.store.record("ring.volume", 0, verdict(Verdict::Correct, 1));
  EXPECT_FALSE(read_progress(pf.storage[ProgressStore::kKey]).unreadable) << "a fresh record replaces it";
  EXPECT_EQ(pf.storage[ProgressStore::kUnreadableKey], "[1, 2") << "the copy aside stays";
}

TEST(ProgressStore, ImportMergesAndKeepsTheRecordBefore) {
  testing::FakePlatform pf;
  Tab mine, other;
  mine.store.start(&pf);
  mine.store.record("ring.volume", 0, verdict(Verdict::Incorrect, 0));
  const std::string before = pf.storage[ProgressStore::kKey];
  testing::FakePlatform elsewhere;  // another browser's export
  other.store.start(&elsewhere);
  other.store.record("tp.step-traffic", 0, verdict(Verdict::Correct, 1));
  const std::string file = elsewhere.storage[ProgressStore::kKey];

  EXPECT_NE(mine.store.import_file("notes.txt", "hello").find("is not a dtx progress file"), std::string::npos);
  EXPECT_EQ(pf.storage[ProgressStore::kKey], before) << "a bad file changes nothing";

  const std::string said = mine.store.import_file("export.json", file);
  EXPECT_NE(said.find("Imported export.json: 1 exercise records merged"), std::string::npos) << said;
  EXPECT_EQ(pf.storage[ProgressStore::kBeforeImportKey], before);
  ProgressRead now = read_progress(pf.storage[ProgressStore::kKey]);
  EXPECT_EQ(now.progress.exercises.size(), 2u);
  mine.store.import_file("export.json", file);
  EXPECT_EQ(read_progress(pf.storage[ProgressStore::kKey]).progress.exercises["tp.step-traffic"].attempts(), 1)
      << "a file imported twice counts no attempt twice";
}

}  // namespace
}  // namespace dtx::web
