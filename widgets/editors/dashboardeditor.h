// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Edits the panels of a dashboard: their list, position and size on the 12-column
// grid, and (through PanelEditor) their contents. Works on a copy; the caller takes
// dashboard() when the dialog is accepted. Layout rules live in dashboardedit.h.
#pragma once

#include "document/dashboard.h"
#include "editors/paneleditor.h"

#include <QDialog>
#include <optional>

class QListWidget;
class QPushButton;
class QSpinBox;

namespace Headroom {

class LayoutPreview;
class SeriesRegistry;

class DashboardEditor : public QDialog
{
    Q_OBJECT
public:
    // The registry must outlive the dialog.
    DashboardEditor(const Dashboard &dashboard, const SeriesRegistry &registry,
                    QWidget *parent = nullptr);
    ~DashboardEditor() override;

    const Dashboard &dashboard() const { return m_dashboard; }
    QString currentPanelId() const;
    void selectPanel(const QString &id);

    // The button actions (Add… and Edit… open a PanelEditor and wait for it).
    void addPanel();
    void editCurrentPanel();
    void removeCurrentPanel();
    void moveCurrentPanel(int delta);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void rebuild(const QString &selectId);
    void showCurrent();
    void layoutEdited();

    Dashboard m_dashboard;
    const SeriesRegistry &m_registry;
    bool m_updating = false;

    QListWidget *m_list;
    QSpinBox *m_x;
    QSpinBox *m_y;
    QSpinBox *m_w;
    QSpinBox *m_h;
    QPushButton *m_edit;
    QPushButton *m_remove;
    QPushButton *m_up;
    QPushButton *m_down;
    LayoutPreview *m_preview;
};

// Runs a DashboardEditor. Returns the edited dashboard, or nullopt when the user
// cancelled or changed nothing (so the caller marks the dashboard modified only on a
// value).
std::optional<Dashboard> editDashboard(QWidget *parent, const Dashboard &dashboard,
                                       const SeriesRegistry &registry);

} // namespace Headroom
