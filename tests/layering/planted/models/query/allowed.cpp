// Allowed: query may read the engine.
#include "engine/seriesstore.h"
#include "core/sample.h"
