#include "postgreslogging.h"
Q_LOGGING_CATEGORY(lcPostgres, "headroom.collectors.postgres", QtInfoMsg)
