// Tests of engine/sim/ring (to be written with the simulation).
#include <gtest/gtest.h>
