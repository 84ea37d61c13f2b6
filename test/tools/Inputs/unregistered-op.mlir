func.func @f() {
  "foo.bar"() {p = 1 : i32} : () -> ()
  return
}
