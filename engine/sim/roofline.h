// Placeholder: roofline and bandwidth hierarchy.
#pragma once
#include "sim/widget.h"
