// Tests of engine/sim/plan (to be written with the simulation).
#include <gtest/gtest.h>
