// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The bar above an untrusted dashboard: what the file would connect to and run, and
// the choice to trust it. Not a modal dialog: the rest of the dashboard (local
// sources, the cache) works while the user reads, the way editors' restricted mode
// does.
#pragma once

#include <QFrame>
#include <QStringList>

class QLabel;

namespace Headroom {

class TrustBar : public QFrame
{
    Q_OBJECT
public:
    explicit TrustBar(QWidget *parent = nullptr);

    // The lines of TrustRequest::describe(); shows the bar.
    void showRequest(const QString &file, const QStringList &lines);

Q_SIGNALS:
    void trustRequested();

private:
    QLabel *m_text;
};

} // namespace Headroom
