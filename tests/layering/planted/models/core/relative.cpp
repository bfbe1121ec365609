// Planted: a relative path that climbs out of core.
#include "../engine/seriesstore.h"
