// Tests of engine/sim/roofline (to be written with the simulation).
#include <gtest/gtest.h>
