// Placeholder: filled in by the ring simulation work.
#pragma once
#include "sim/widget.h"
