// RiffleKit is the library users import: it brings the layers under it along, so `import RiffleKit`
// is all a program needs (see README, "Modules").
@_exported import RiffleJSON
@_exported import RiffleHTTP
@_exported import RiffleCache
