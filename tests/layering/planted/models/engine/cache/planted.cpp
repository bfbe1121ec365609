// Planted: the cache sits below the alert engine.
#include "engine/alerts/alertengine.h"
