#include "modelslogging.h"
Q_LOGGING_CATEGORY(lcModels, "headroom.models", QtWarningMsg)
Q_LOGGING_CATEGORY(lcCache, "headroom.cache", QtWarningMsg)
Q_LOGGING_CATEGORY(lcScheduler, "headroom.scheduler", QtWarningMsg)
Q_LOGGING_CATEGORY(lcDashboard, "headroom.dashboard", QtWarningMsg)
// Info by default: each desktop notification is also a line on stderr, a record of
// what the user was told.
Q_LOGGING_CATEGORY(lcAlerts, "headroom.alerts", QtInfoMsg)
