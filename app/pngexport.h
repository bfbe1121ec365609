// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// File ▸ Export Dashboard as PNG and a panel's Export Panel as PNG: asks for a file,
// suggesting fileName, and writes the widget as drawn (imageexport.h) at the parent's
// pixel ratio. A failure goes to a message box naming the file.
#pragma once

#include <QString>

class QWidget;

namespace Headroom {

void exportPng(QWidget *parent, QWidget *widget, const QString &title, const QString &fileName);

} // namespace Headroom
