fn f() {
loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {loop {break;}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}
}
