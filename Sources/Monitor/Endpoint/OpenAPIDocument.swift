/// The OpenAPI 3.1 document of `/api/v1/` and `/badge/{domain}.svg`, served at `/api/v1/openapi.json`.
///
/// Written by hand beside the routes (`APIRoute.all`) rather than generating the server from it: the handlers are a
/// few lines over the readers `status` uses. `APIOpenAPITests` holds the two together: every route is in it,
/// and every field of a real answer is in its schema.
enum OpenAPIDocument {
    static let json = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "aasa-monitor",
            "version": "1",
            "description": "The daemon's HTTP API: the same answers as status, history and silence. Errors are {\"error\": {\"code\", \"message\"}}. With endpoint.basic_auth_file every route needs HTTP Basic credentials; without it, writes (POST, DELETE) are refused with 403 unless the endpoint listens on loopback. A request whose Host is not an IP address, localhost, the listen host or a name of endpoint.hosts is refused with 421 (DNS rebinding), and a write whose Origin is another site's with 403."
          },
          "components": {
            "schemas": {
              "Error": {
                "type": "object",
                "properties": {
                  "error": {
                    "type": "object",
                    "properties": {
                      "code": {
                        "type": "string",
                        "description": "Stable: invalid_parameter, invalid_body, not_found, forbidden, method_not_allowed, unsupported_media_type, too_large, unavailable."
                      },
                      "message": {
                        "type": "string",
                        "description": "What is wrong and where (the parameter or field)."
                      }
                    },
                    "required": [
                      "code",
                      "message"
                    ],
                    "additionalProperties": false
                  }
                },
                "required": [
                  "error"
                ],
                "additionalProperties": false
              },
              "ListedVerdict": {
                "type": "string",
                "enum": [
                  "origin_broken",
                  "expectation_failed",
                  "cdn_missing",
                  "cdn_stale",
                  "unknown",
                  "not_checked",
                  "ready"
                ],
                "description": "A verdict, or not_checked before a configured domain's first check."
              },
              "Verdict": {
                "type": "string",
                "enum": [
                  "origin_broken",
                  "expectation_failed",
                  "cdn_missing",
                  "cdn_stale",
                  "unknown",
                  "ready"
                ]
              },
              "Source": {
                "type": "string",
                "enum": [
                  "origin.well-known",
                  "origin.root",
                  "cdn"
                ]
              },
              "DomainList": {
                "type": "object",
                "properties": {
                  "domains": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/DomainListEntry"
                    },
                    "description": "Problems first (worst verdict first), then by name."
                  },
                  "total": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "Domains matching both filters, on every page."
                  },
                  "counts": {
                    "type": "object",
                    "propertyNames": {
                      "$ref": "#/components/schemas/ListedVerdict"
                    },
                    "additionalProperties": {
                      "type": "integer",
                      "minimum": 0
                    },
                    "description": "Domains matching q, by verdict, whatever the verdict filter; a verdict no domain has is absent."
                  },
                  "offset": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "Matching domains before the first row."
                  },
                  "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 1000
                  },
                  "next_cursor": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "Pass as cursor for the next page; null on the last page."
                  }
                },
                "required": [
                  "domains",
                  "total",
                  "counts",
                  "offset",
                  "limit",
                  "next_cursor"
                ],
                "additionalProperties": false
              },
              "DomainListEntry": {
                "type": "object",
                "properties": {
                  "domain": {
                    "type": "string"
                  },
                  "verdict": {
                    "$ref": "#/components/schemas/ListedVerdict"
                  },
                  "since": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time",
                    "description": "When the verdict began."
                  },
                  "last_check": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  }
                },
                "required": [
                  "domain",
                  "verdict",
                  "since",
                  "last_check"
                ],
                "additionalProperties": false
              },
              "Status": {
                "type": "object",
                "properties": {
                  "daemon": {
                    "$ref": "#/components/schemas/Daemon"
                  },
                  "domains": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/DomainStatus"
                    },
                    "description": "The domain asked for; empty before its first check."
                  },
                  "outbox": {
                    "$ref": "#/components/schemas/Outbox"
                  },
                  "monitor": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Alert"
                    },
                    "description": "The monitor's own conditions (monitor.*) while they last."
                  }
                },
                "required": [
                  "daemon",
                  "domains",
                  "outbox",
                  "monitor"
                ],
                "additionalProperties": false,
                "description": "What aasa-monitor status DOMAIN --json prints."
              },
              "Daemon": {
                "type": "object",
                "properties": {
                  "running": {
                    "type": "boolean"
                  },
                  "pid": {
                    "type": [
                      "integer",
                      "null"
                    ]
                  },
                  "host": {
                    "type": [
                      "string",
                      "null"
                    ]
                  },
                  "version": {
                    "type": [
                      "string",
                      "null"
                    ]
                  },
                  "started_at": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "heartbeat": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "heartbeat_age": {
                    "type": [
                      "number",
                      "null"
                    ],
                    "description": "Seconds since the last heartbeat."
                  }
                },
                "required": [
                  "running",
                  "pid",
                  "host",
                  "version",
                  "started_at",
                  "heartbeat",
                  "heartbeat_age"
                ],
                "additionalProperties": false
              },
              "DomainStatus": {
                "type": "object",
                "properties": {
                  "domain": {
                    "type": "string"
                  },
                  "verdict": {
                    "$ref": "#/components/schemas/Verdict"
                  },
                  "since": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "last_check": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "last_duration": {
                    "type": "number",
                    "description": "Seconds the last check took."
                  },
                  "findings": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Finding"
                    },
                    "description": "Causes first, each followed by its consequences."
                  },
                  "cdn": {
                    "$ref": "#/components/schemas/CDN"
                  },
                  "certificate": {
                    "type": "object",
                    "properties": {
                      "not_after": {
                        "type": [
                          "string",
                          "null"
                        ],
                        "format": "date-time"
                      }
                    },
                    "required": [
                      "not_after"
                    ],
                    "additionalProperties": false
                  },
                  "alerts": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Alert"
                    }
                  },
                  "silenced": {
                    "oneOf": [
                      {
                        "$ref": "#/components/schemas/Silence"
                      },
                      {
                        "type": "null"
                      }
                    ],
                    "description": "The silence in force over everything about the domain (one without a code), null when none; a silence of one code shows on the alerts it mutes (silenced_by)."
                  }
                },
                "required": [
                  "domain",
                  "verdict",
                  "since",
                  "last_check",
                  "last_duration",
                  "findings",
                  "cdn",
                  "certificate",
                  "alerts",
                  "silenced"
                ],
                "additionalProperties": false
              },
              "Finding": {
                "type": "object",
                "properties": {
                  "code": {
                    "type": "string"
                  },
                  "severity": {
                    "type": "string",
                    "enum": [
                      "info",
                      "warning",
                      "error"
                    ]
                  },
                  "source": {
                    "$ref": "#/components/schemas/Source"
                  },
                  "subject": {
                    "type": "string",
                    "description": "The URL or app ID of an expect.* finding, empty otherwise."
                  },
                  "message": {
                    "type": "string"
                  },
                  "since": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "caused_by": {
                    "oneOf": [
                      {
                        "type": "object",
                        "properties": {
                          "code": {
                            "type": "string"
                          },
                          "source": {
                            "$ref": "#/components/schemas/Source"
                          },
                          "relation": {
                            "type": "string",
                            "enum": [
                              "consequence",
                              "same_problem"
                            ]
                          }
                        },
                        "required": [
                          "code",
                          "source",
                          "relation"
                        ],
                        "additionalProperties": false
                      },
                      {
                        "type": "null"
                      }
                    ]
                  }
                },
                "required": [
                  "code",
                  "severity",
                  "source",
                  "subject",
                  "message",
                  "since",
                  "caused_by"
                ],
                "additionalProperties": false
              },
              "CDN": {
                "type": "object",
                "properties": {
                  "in_sync": {
                    "type": [
                      "boolean",
                      "null"
                    ]
                  },
                  "stale_since": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "missing_since": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "expected_refresh": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "last_propagation_delay": {
                    "type": [
                      "number",
                      "null"
                    ],
                    "description": "Seconds from the last origin change to Apple serving it."
                  },
                  "propagation_pending_since": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "copy_hash": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "The meaning of the copy Apple serves, null when it serves none or was not asked."
                  },
                  "last_answer": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time",
                    "description": "When Apple last answered about the domain (a copy or a 404)."
                  }
                },
                "required": [
                  "in_sync",
                  "stale_since",
                  "missing_since",
                  "expected_refresh",
                  "last_propagation_delay",
                  "propagation_pending_since",
                  "copy_hash",
                  "last_answer"
                ],
                "additionalProperties": false
              },
              "Alert": {
                "type": "object",
                "properties": {
                  "code": {
                    "type": "string"
                  },
                  "source": {
                    "$ref": "#/components/schemas/Source"
                  },
                  "subject": {
                    "type": "string"
                  },
                  "state": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "pending, firing, resolving or resolved; null when unreadable."
                  },
                  "since": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "flapping": {
                    "type": "boolean"
                  },
                  "passing_since": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "held_until": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "silenced_by": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Silence"
                    },
                    "description": "Every silence in force that mutes this alert, the one ending last first."
                  }
                },
                "required": [
                  "code",
                  "source",
                  "subject",
                  "state",
                  "since",
                  "flapping",
                  "passing_since",
                  "held_until",
                  "silenced_by"
                ],
                "additionalProperties": false
              },
              "Outbox": {
                "type": "object",
                "properties": {
                  "pending": {
                    "type": "integer"
                  },
                  "retrying": {
                    "type": "integer"
                  },
                  "dead": {
                    "type": "integer"
                  },
                  "next_attempt": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "failing_webhooks": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "properties": {
                        "webhook": {
                          "type": "string"
                        },
                        "retrying": {
                          "type": "integer"
                        },
                        "dead": {
                          "type": "integer"
                        },
                        "last_status": {
                          "type": [
                            "integer",
                            "null"
                          ]
                        },
                        "last_error": {
                          "type": [
                            "string",
                            "null"
                          ]
                        }
                      },
                      "required": [
                        "webhook",
                        "retrying",
                        "dead",
                        "last_status",
                        "last_error"
                      ],
                      "additionalProperties": false
                    }
                  }
                },
                "required": [
                  "pending",
                  "retrying",
                  "dead",
                  "next_attempt",
                  "failing_webhooks"
                ],
                "additionalProperties": false
              },
              "History": {
                "type": "object",
                "properties": {
                  "domain": {
                    "type": "string"
                  },
                  "events": {
                    "type": "array",
                    "description": "Oldest first.",
                    "items": {
                      "type": "object",
                      "required": [
                        "at",
                        "kind"
                      ],
                      "properties": {
                        "at": {
                          "type": "string",
                          "format": "date-time"
                        },
                        "kind": {
                          "type": "string",
                          "description": "origin.changed, cdn.propagated, verdict.changed, alert.firing, …"
                        },
                        "sent": {
                          "type": "boolean",
                          "description": "Alert events only: false when receivers were not told of it then."
                        },
                        "silenced": {
                          "type": "object",
                          "description": "The silence that held an alert event: id, by, reason, until."
                        },
                        "sent_at": {
                          "type": "string",
                          "format": "date-time",
                          "description": "When a firing a silence held was sent, once the silence ended."
                        },
                        "held_since": {
                          "type": "string",
                          "format": "date-time",
                          "description": "A held firing's sending whose firing is older than the events listed."
                        }
                      },
                      "additionalProperties": true,
                      "description": "The event's detail follows at and kind; its keys depend on the kind."
                    }
                  },
                  "runs": {
                    "type": "array",
                    "description": "Outcome runs, newest first.",
                    "items": {
                      "type": "object",
                      "properties": {
                        "verdict": {
                          "type": "string"
                        },
                        "from": {
                          "type": "string",
                          "format": "date-time"
                        },
                        "to": {
                          "type": "string",
                          "format": "date-time"
                        },
                        "checks": {
                          "type": "integer"
                        },
                        "origin_hash": {
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "cdn_hash": {
                          "type": [
                            "string",
                            "null"
                          ]
                        }
                      },
                      "required": [
                        "verdict",
                        "from",
                        "to",
                        "checks",
                        "origin_hash",
                        "cdn_hash"
                      ],
                      "additionalProperties": false
                    }
                  }
                },
                "required": [
                  "domain",
                  "events",
                  "runs"
                ],
                "additionalProperties": false,
                "description": "What aasa-monitor history DOMAIN --json prints."
              },
              "Silence": {
                "type": "object",
                "properties": {
                  "id": {
                    "type": "string",
                    "description": "The row id, or maintenance:NAME for a configured window."
                  },
                  "domains": {
                    "type": [
                      "array",
                      "null"
                    ],
                    "items": {
                      "type": "string"
                    },
                    "description": "null for every domain."
                  },
                  "code": {
                    "type": [
                      "string",
                      "null"
                    ]
                  },
                  "starts_at": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "ends_at": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  },
                  "author": {
                    "type": "string"
                  },
                  "reason": {
                    "type": "string"
                  },
                  "state": {
                    "type": "string",
                    "enum": [
                      "active",
                      "pending",
                      "ended"
                    ]
                  },
                  "text": {
                    "type": "string"
                  }
                },
                "required": [
                  "id",
                  "domains",
                  "code",
                  "starts_at",
                  "ends_at",
                  "author",
                  "reason",
                  "state",
                  "text"
                ],
                "additionalProperties": false
              },
              "SilenceList": {
                "type": "object",
                "properties": {
                  "silences": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Silence"
                    }
                  }
                },
                "required": [
                  "silences"
                ],
                "additionalProperties": false,
                "description": "What aasa-monitor silence list --json prints, in an object."
              },
              "NewSilence": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "reason"
                ],
                "description": "As silence add takes it: domains or all, for or ends_at, a reason.",
                "properties": {
                  "domains": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    },
                    "minItems": 1,
                    "description": "Configured domains."
                  },
                  "all": {
                    "type": "boolean",
                    "description": "Every domain (instead of domains)."
                  },
                  "code": {
                    "type": "string",
                    "description": "Only alerts of this finding code (explain --list)."
                  },
                  "for": {
                    "type": "string",
                    "pattern": "^[1-9][0-9]{0,5}[smhd]$",
                    "description": "How long: 30m, 2h, 1d."
                  },
                  "ends_at": {
                    "type": "string",
                    "format": "date-time",
                    "description": "Until when (instead of for); in the future."
                  },
                  "reason": {
                    "type": "string",
                    "minLength": 1,
                    "pattern": "\\S"
                  },
                  "author": {
                    "type": "string",
                    "minLength": 1,
                    "pattern": "\\S",
                    "description": "Default: the authenticated user, else api."
                  }
                }
              }
            },
            "securitySchemes": {
              "basic": {
                "type": "http",
                "scheme": "basic"
              }
            }
          },
          "security": [
            {},
            {
              "basic": []
            }
          ],
          "paths": {
            "/api/v1/domains": {
              "get": {
                "operationId": "listDomains",
                "summary": "The configured domains, problems first, filtered and paged.",
                "parameters": [
                  {
                    "name": "verdict",
                    "in": "query",
                    "style": "form",
                    "explode": false,
                    "schema": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/ListedVerdict"
                      }
                    },
                    "description": "Only these verdicts (comma-separated or repeated)."
                  },
                  {
                    "name": "q",
                    "in": "query",
                    "schema": {
                      "type": "string",
                      "maxLength": 253
                    },
                    "description": "Only names containing this text (any case)."
                  },
                  {
                    "name": "limit",
                    "in": "query",
                    "schema": {
                      "type": "integer",
                      "minimum": 1,
                      "maximum": 1000,
                      "default": 100
                    }
                  },
                  {
                    "name": "offset",
                    "in": "query",
                    "schema": {
                      "type": "integer",
                      "minimum": 0,
                      "maximum": 2147483647,
                      "default": 0
                    },
                    "description": "Rows to skip; not with cursor."
                  },
                  {
                    "name": "cursor",
                    "in": "query",
                    "schema": {
                      "type": "string"
                    },
                    "description": "next_cursor of an earlier page; not with offset."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "One page.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/DomainList"
                        }
                      }
                    },
                    "links": {
                      "GetDomain": {
                        "operationId": "getDomain",
                        "parameters": {
                          "domain": "$response.body#/domains/0/domain"
                        }
                      },
                      "GetHistory": {
                        "operationId": "getHistory",
                        "parameters": {
                          "domain": "$response.body#/domains/0/domain"
                        }
                      },
                      "GetBadge": {
                        "operationId": "getBadge",
                        "parameters": {
                          "domain": "$response.body#/domains/0/domain"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "A parameter is malformed; the message names it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "Credentials required (endpoint.basic_auth_file).",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "429": {
                    "description": "Too many failed logins for this user from this address, or the password checks are busy; see Retry-After.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "500": {
                    "description": "The store could not answer; the cause is in the daemon's log.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/api/v1/domains/{domain}": {
              "get": {
                "operationId": "getDomain",
                "summary": "What status DOMAIN --json prints.",
                "parameters": [
                  {
                    "name": "domain",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string"
                    },
                    "description": "A configured domain (A-label or U-label)."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The status document with this domain.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Status"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "Not a configured domain.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "Credentials required (endpoint.basic_auth_file).",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "429": {
                    "description": "Too many failed logins for this user from this address, or the password checks are busy; see Retry-After.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "500": {
                    "description": "The store could not answer; the cause is in the daemon's log.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/api/v1/domains/{domain}/history": {
              "get": {
                "operationId": "getHistory",
                "summary": "What history DOMAIN --json prints.",
                "parameters": [
                  {
                    "name": "domain",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string"
                    },
                    "description": "A configured domain (A-label or U-label)."
                  },
                  {
                    "name": "limit",
                    "in": "query",
                    "schema": {
                      "type": "integer",
                      "minimum": 1,
                      "maximum": 10000,
                      "default": 1000
                    },
                    "description": "The most events, newest kept."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The timeline.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/History"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "A parameter is malformed.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "Not a configured domain.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "Credentials required (endpoint.basic_auth_file).",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "429": {
                    "description": "Too many failed logins for this user from this address, or the password checks are busy; see Retry-After.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "500": {
                    "description": "The store could not answer; the cause is in the daemon's log.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/api/v1/silences": {
              "get": {
                "operationId": "listSilences",
                "summary": "Silences in force or to come, and open maintenance windows.",
                "responses": {
                  "200": {
                    "description": "The silences.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/SilenceList"
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "Credentials required (endpoint.basic_auth_file).",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "429": {
                    "description": "Too many failed logins for this user from this address, or the password checks are busy; see Retry-After.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "500": {
                    "description": "The store could not answer; the cause is in the daemon's log.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              },
              "post": {
                "operationId": "addSilence",
                "summary": "Add a silence, as silence add does.",
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/NewSilence"
                      },
                      "examples": {
                        "every domain": {
                          "value": {
                            "all": true,
                            "for": "2h",
                            "reason": "moving the CDN"
                          }
                        },
                        "one code": {
                          "value": {
                            "all": true,
                            "code": "cdn.stale",
                            "for": "1d",
                            "reason": "Apple is slow today",
                            "author": "alice"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "Added.",
                    "headers": {
                      "Location": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    },
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Silence"
                        }
                      }
                    },
                    "links": {
                      "ExpireSilence": {
                        "operationId": "expireSilence",
                        "parameters": {
                          "id": "$response.body#/id"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "A field is wrong; the message names it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "415": {
                    "description": "The body is not sent as application/json.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "403": {
                    "description": "Writes need endpoint.basic_auth_file credentials unless the endpoint listens on loopback.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "413": {
                    "description": "The body is too large.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      },
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "Credentials required (endpoint.basic_auth_file).",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "429": {
                    "description": "Too many failed logins for this user from this address, or the password checks are busy; see Retry-After.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "500": {
                    "description": "The store could not answer; the cause is in the daemon's log.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/api/v1/silences/{id}": {
              "delete": {
                "operationId": "expireSilence",
                "summary": "End a silence now, as silence expire does.",
                "parameters": [
                  {
                    "name": "id",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string",
                      "pattern": "^[1-9][0-9]{0,17}$"
                    },
                    "description": "The id silence list shows."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The silence, ended (or already over).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Silence"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Not a silence id (or a maintenance window).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "No such silence.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "403": {
                    "description": "Writes need endpoint.basic_auth_file credentials unless the endpoint listens on loopback.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "413": {
                    "description": "The body is too large.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      },
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "Credentials required (endpoint.basic_auth_file).",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "429": {
                    "description": "Too many failed logins for this user from this address, or the password checks are busy; see Retry-After.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "500": {
                    "description": "The store could not answer; the cause is in the daemon's log.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/api/v1/openapi.json": {
              "get": {
                "operationId": "getOpenAPI",
                "summary": "This document.",
                "responses": {
                  "200": {
                    "description": "OpenAPI 3.1.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object"
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "Credentials required (endpoint.basic_auth_file).",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "429": {
                    "description": "Too many failed logins for this user from this address, or the password checks are busy; see Retry-After.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/badge/{domain}.svg": {
              "get": {
                "operationId": "getBadge",
                "summary": "The domain's verdict as a shields.io-style SVG badge, cached a minute.",
                "parameters": [
                  {
                    "name": "domain",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string"
                    },
                    "description": "A configured domain (A-label or U-label)."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The badge.",
                    "headers": {
                      "Cache-Control": {
                        "schema": {
                          "type": "string",
                          "const": "max-age=60"
                        }
                      }
                    },
                    "content": {
                      "image/svg+xml": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "Not a configured domain: a grey 'not monitored' badge.",
                    "content": {
                      "image/svg+xml": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "Credentials required (endpoint.basic_auth_file).",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "429": {
                    "description": "Too many failed logins for this user from this address, or the password checks are busy; see Retry-After.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "500": {
                    "description": "The store could not answer; the cause is in the daemon's log.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
        """#
}
