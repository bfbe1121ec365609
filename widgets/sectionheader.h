// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The bar above a dashboard section: an arrow and the section's title; a click folds the
// section's panels away or back (DashboardView does the folding).
#pragma once

#include <QWidget>

class QToolButton;

namespace Headroom {

class SectionHeader : public QWidget
{
    Q_OBJECT
public:
    SectionHeader(const QString &title, bool collapsed, QWidget *parent = nullptr);

    bool isCollapsed() const { return m_collapsed; }
    void setCollapsed(bool collapsed);
    // Shown after the title while collapsed: "(4 panels)".
    void setHiddenCount(int panels);
    QString text() const;
    QToolButton *button() const { return m_button; }

Q_SIGNALS:
    void toggled(bool collapsed);

private:
    void updateText();

    QToolButton *m_button;
    QString m_title;
    bool m_collapsed;
    int m_hiddenCount = 0;
};

} // namespace Headroom
