// Clang's thread-safety annotations (-Wthread-safety), as leveldb's
// port/thread_annotations.h and Abseil spell them. Under GCC they expand
// to nothing; the Clang build in CI (scripts/thread_safety.sh) checks that
// every member marked GUARDED_BY is touched only with its lock held and
// every function marked REQUIRES is called only with it.
#pragma once

#if defined(__clang__)
#define DDB_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define DDB_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) DDB_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY DDB_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) DDB_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) DDB_THREAD_ANNOTATION(pt_guarded_by(x))
#define ACQUIRED_BEFORE(...) DDB_THREAD_ANNOTATION(acquired_before(__VA_ARGS__))
#define ACQUIRED_AFTER(...) DDB_THREAD_ANNOTATION(acquired_after(__VA_ARGS__))
#define REQUIRES(...) DDB_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define REQUIRES_SHARED(...) DDB_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))
#define ACQUIRE(...) DDB_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define ACQUIRE_SHARED(...) DDB_THREAD_ANNOTATION(acquire_shared_capability(__VA_ARGS__))
#define RELEASE(...) DDB_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define RELEASE_SHARED(...) DDB_THREAD_ANNOTATION(release_shared_capability(__VA_ARGS__))
#define RELEASE_GENERIC(...) DDB_THREAD_ANNOTATION(release_generic_capability(__VA_ARGS__))
#define EXCLUDES(...) DDB_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define ASSERT_CAPABILITY(x) DDB_THREAD_ANNOTATION(assert_capability(x))
#define RETURN_CAPABILITY(x) DDB_THREAD_ANNOTATION(lock_returned(x))
#define NO_THREAD_SAFETY_ANALYSIS DDB_THREAD_ANNOTATION(no_thread_safety_analysis)
