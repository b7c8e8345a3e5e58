// Placeholder: filled in by the pipeline simulation work.
#pragma once
#include "sim/widget.h"
