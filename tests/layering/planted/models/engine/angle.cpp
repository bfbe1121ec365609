// Planted: angle brackets reach the query layer from the engine.
#include <query/panelquery.h>
