// Placeholder: filled in by the plan simulation work.
#pragma once
#include "sim/widget.h"
