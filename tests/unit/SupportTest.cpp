// Tests of the shared support utilities (generator/support).
#include "support/Text.h"

#include <gtest/gtest.h>

using namespace risec;

TEST(EditDistance, CountsEditsAndTranspositions) {
  EXPECT_EQ(editDistance("map", "map"), 0u);
  EXPECT_EQ(editDistance("mpa", "map"), 1u);      // a transposition
  EXPECT_EQ(editDistance("mapSq", "mapSeq"), 1u); // an insertion
  EXPECT_EQ(editDistance("Map", "map"), 0u);      // case does not count
  EXPECT_EQ(editDistance("", "zip"), 3u);
  EXPECT_EQ(editDistance("reduce", "split"), 6u);
}

TEST(CIdentifier, AcceptsOnlyCNames) {
  EXPECT_TRUE(isCIdentifier("mv_c"));
  EXPECT_TRUE(isCIdentifier("_x1"));
  EXPECT_FALSE(isCIdentifier(""));
  EXPECT_FALSE(isCIdentifier("2mv"));
  EXPECT_FALSE(isCIdentifier("mm-blocking"));
}
