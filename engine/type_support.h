// Everything a type's engine part (types/<type>/<type>.cpp) uses beyond model.h: the field
// readers (json_fields.h), lint's context (lint_context.h) and the instance's random numbers
// (rng.h). Code outside a type includes only the header it needs.
#pragma once

#include "json_fields.h"
#include "lint_context.h"
#include "rng.h"
#include "type_registry.h"
