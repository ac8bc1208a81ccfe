// Mutexes the thread-safety analysis understands (thread_annotations.h):
// libstdc++'s std::mutex carries no annotations, so the engine locks
// through these thin wrappers and their scoped guards instead.
//
// Thread safety: what mutexes are for.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <shared_mutex>

#include "engine/thread_annotations.h"

namespace ddb::engine {

class CAPABILITY("mutex") Mutex {
 public:
  void Lock() ACQUIRE() { mu_.lock(); }
  void Unlock() RELEASE() { mu_.unlock(); }
  // Tells the analysis the caller holds this mutex where it cannot see the
  // acquisition (a lock taken through a run-time list of tables).
  void AssertHeld() const ASSERT_CAPABILITY(this) {}

  // BasicLockable, for std::condition_variable_any (CondVar).
  void lock() ACQUIRE() { mu_.lock(); }
  void unlock() RELEASE() { mu_.unlock(); }

 private:
  std::mutex mu_;
};

// Many readers or one writer.
class CAPABILITY("shared mutex") SharedMutex {
 public:
  void Lock() ACQUIRE() { mu_.lock(); }
  void Unlock() RELEASE() { mu_.unlock(); }
  void LockShared() ACQUIRE_SHARED() { mu_.lock_shared(); }
  void UnlockShared() RELEASE_SHARED() { mu_.unlock_shared(); }

 private:
  std::shared_mutex mu_;
};

// Holds `mu` for the guard's scope.
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mu) ACQUIRE(mu) : mu_(mu) { mu_.Lock(); }
  ~MutexLock() RELEASE() { mu_.Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex& mu_;
};

// Holds `mu` exclusively for the guard's scope.
class SCOPED_CAPABILITY WriterLock {
 public:
  explicit WriterLock(SharedMutex& mu) ACQUIRE(mu) : mu_(mu) { mu_.Lock(); }
  ~WriterLock() RELEASE() { mu_.Unlock(); }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  SharedMutex& mu_;
};

// Holds `mu` shared for the guard's scope.
class SCOPED_CAPABILITY ReaderLock {
 public:
  explicit ReaderLock(SharedMutex& mu) ACQUIRE_SHARED(mu) : mu_(mu) { mu_.LockShared(); }
  ~ReaderLock() RELEASE() { mu_.UnlockShared(); }
  ReaderLock(const ReaderLock&) = delete;
  ReaderLock& operator=(const ReaderLock&) = delete;

 private:
  SharedMutex& mu_;
};

// A condition variable over a Mutex the caller holds.
class CondVar {
 public:
  void NotifyAll() { cv_.notify_all(); }
  // Waits until `done()` or `timeout_millis` pass; `mu` is held again on
  // return. REQUIRES: `mu` held.
  template <class Predicate>
  void WaitFor(Mutex& mu, int64_t timeout_millis, Predicate done) REQUIRES(mu) {
    cv_.wait_for(mu, std::chrono::milliseconds(timeout_millis), done);
  }
  // Waits until `done()` or notified; `mu` is held again on return.
  void WaitFor(Mutex& mu, int64_t timeout_millis) REQUIRES(mu) {
    cv_.wait_for(mu, std::chrono::milliseconds(timeout_millis));
  }

 private:
  std::condition_variable_any cv_;
};

}  // namespace ddb::engine
