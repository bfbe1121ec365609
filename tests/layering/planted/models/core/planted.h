// Planted: core must not reach the engine.
#pragma once
#include "engine/cache/samplecache.h"
