// Allowed: query may read the engine.
#include "core/sample.h"
#include "engine/seriesstore.h"
