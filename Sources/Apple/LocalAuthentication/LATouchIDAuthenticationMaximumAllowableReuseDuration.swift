import Foundation

/// The longest ``LAContext/touchIDAuthenticationAllowableReuseDuration`` a context accepts: 300 seconds.
public let LATouchIDAuthenticationMaximumAllowableReuseDuration: TimeInterval = 300
