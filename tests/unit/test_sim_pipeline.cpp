// Tests of engine/sim/pipeline (to be written with the simulation).
#include <gtest/gtest.h>
