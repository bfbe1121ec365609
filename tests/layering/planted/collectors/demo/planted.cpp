// Planted: a plugin links only headroom_collector.
#include "document/dashboard.h"
