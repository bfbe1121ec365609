// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "exportview.h"

#include "dashboardview.h"

#include <QApplication>

namespace Headroom {

void showForExport(DashboardView *view, int width, qint64 fromMs, qint64 toMs)
{
    view->setAttribute(Qt::WA_DontShowOnScreen);
    view->resize(view->preferredSize(width));
    view->show();
    QApplication::processEvents(); // lay out so panels know their pixel widths
    view->refreshNow(fromMs, toMs);
    view->resize(view->preferredSize(width));
    QApplication::processEvents();
}

} // namespace Headroom
