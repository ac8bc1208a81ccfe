// The server's clock: shifted, set and frozen, as the admin API moves it.

#include "engine/clock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace ddb::engine {
namespace {

TEST(ShiftableClockTest, AFrozenClockMovesOnlyWhenTold) {
  ShiftableClock clock;
  clock.Set(1'000'000);
  clock.Freeze(true);
  EXPECT_TRUE(clock.frozen());
  int64_t at = clock.NowMillis();
  EXPECT_GE(at, 1'000'000);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(clock.NowMillis(), at);
  clock.Advance(1500);
  EXPECT_EQ(clock.NowMillis(), at + 1500);
  clock.Set(5'000'000);
  EXPECT_EQ(clock.NowMillis(), 5'000'000);
  // Let go, it runs on from where it stood.
  clock.Freeze(false);
  EXPECT_FALSE(clock.frozen());
  EXPECT_GE(clock.NowMillis(), 5'000'000);
  EXPECT_LT(clock.NowMillis(), 5'000'000 + 10'000);
  clock.Freeze(true);
  clock.Reset();  // the system's time, running
  EXPECT_FALSE(clock.frozen());
  EXPECT_EQ(clock.offset_millis(), 0);
}

}  // namespace
}  // namespace ddb::engine
