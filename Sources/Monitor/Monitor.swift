@_exported import MonitorCore
